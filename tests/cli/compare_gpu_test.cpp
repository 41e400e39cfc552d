// GPU machine only: kopt compare end to end. The same kernel against itself is never called
// faster or slower; a version made slower by an added delay is negative; a version that crashes
// while it takes its turn, or writes its own "timing" to kopt's channel, fails with the reason.
// Triton modules take turns as well, in kopt's Python runner.
#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/kopt_process.h"

namespace kopt {
namespace {
using testing::run_kopt;
using testing::scratch_dir;

std::string vector_add() {
  std::ifstream in(testing::source_dir() / "examples" / "vector_add.cu");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// vector_add with `code` run at the start of solve().
std::string vector_add_with(const std::string& code, const std::string& globals = "") {
  std::string text = vector_add();
  const std::string solve_line = "    if (N <= 0) return;";
  const auto at = text.find(solve_line);
  EXPECT_NE(at, std::string::npos);
  text.insert(at + solve_line.size(), "\n" + code);
  const auto solve_at = text.find("extern \"C\" void solve");
  text.insert(solve_at, globals);
  return text;
}

struct compared {
  int exit_code = -1;
  std::string stderr_text;
  nlohmann::json document;
};

// `kopt compare` of two versions written as files with `extension`, at `dims`.
compared compare(const std::string& baseline, const std::string& candidate,
                 const std::string& extension = ".cu",
                 const std::vector<std::string>& dims = {"--N=1048576"}) {
  static scratch_dir dir;
  static int counter = 0;
  ++counter;
  const auto a = dir.write("a" + std::to_string(counter) + extension, baseline);
  const auto b = dir.write("b" + std::to_string(counter) + extension, candidate);
  const auto out = dir.path() / ("c" + std::to_string(counter) + ".json");
  std::vector<std::string> words = {"compare", a.string(), b.string(), "--json-out", out.string()};
  words.insert(words.end(), dims.begin(), dims.end());
  const auto r = run_kopt(words);
  compared c{r.exit_code, r.stderr_text, nullptr};
  if (std::filesystem::exists(out)) c.document = nlohmann::json::parse(std::ifstream(out));
  return c;
}

TEST(CompareOnGpu, TheSameKernelIsNeverCalledFasterOrSlower) {
  const compared c = compare(vector_add(), vector_add());
  ASSERT_EQ(c.exit_code, 0) << c.stderr_text;
  const std::string outcome = c.document["outcome"];
  EXPECT_TRUE(outcome == "neutral" || outcome == "inconclusive") << c.document.dump().substr(0, 2000);
  EXPECT_GE(c.document["rounds"].get<int>(), 6);
  EXPECT_EQ(c.document["round_ratios"].size(), c.document["rounds"].get<std::size_t>());
  EXPECT_TRUE(c.document["warnings"].empty())
      << "no other process may use the GPU while a version takes its turn";
}

TEST(CompareOnGpu, AVersionWithAnAddedDelayIsNegative) {
  // One warp spinning for ~2 µs after the sum: about a fifth more time at 1M elements.
  const std::string spin =
      "__global__ void added_delay() { const long long t = clock64(); while (clock64() - t < 4000) {} }\n";
  const compared c = compare(vector_add(), vector_add_with("    added_delay<<<1, 32>>>();", spin));
  ASSERT_EQ(c.exit_code, 0) << c.stderr_text;
  EXPECT_EQ(c.document["outcome"], "negative") << c.document.dump().substr(0, 2000);
  EXPECT_GT(c.document["ratio"].get<double>(), 1.05);
}

TEST(CompareOnGpu, AVersionThatCrashesInItsTurnFailsWithTheReason) {
  const std::string late_fault =
      "__global__ void fault(int* p) { *p = 1; }\n"
      "static int calls = 0;\n";
  const compared c =
      compare(vector_add(), vector_add_with("    if (++calls == 40) fault<<<1, 1>>>(nullptr);", late_fault));
  EXPECT_EQ(c.exit_code, 1) << c.stderr_text;
  EXPECT_NE(c.stderr_text.find("the candidate: "), std::string::npos) << c.stderr_text;
  EXPECT_EQ(c.document["failed_version"], "candidate");
}

TEST(CompareOnGpu, ATimingWrittenToKoptsChannelByTheKernelIsAForgery) {
  // The measuring process's standard input is kopt's channel: a version that writes a
  // block's reply of its own there (a tiny median) must not be believed.
  const std::string forge =
      "#include <unistd.h>\n#include <cstring>\n"
      "static bool forged = false;\n";
  const std::string code =
      "    if (!forged) { forged = true; const char* fake = "
      "\"{\\\"block\\\":1,\\\"status\\\":\\\"ok\\\",\\\"timing\\\":{\\\"median_ms\\\":1e-6,\\\"samples_"
      "ms\\\":[1e-6]}}\\n\"; "
      "(void)!write(0, fake, strlen(fake)); }";
  const compared c = compare(vector_add(), vector_add_with(code, forge));
  EXPECT_EQ(c.exit_code, 1) << c.stderr_text;
  EXPECT_NE(c.stderr_text.find("forged result"), std::string::npos) << c.stderr_text;
}

// Several candidates at once, spread over every GPU of the machine (one slot on a one-GPU
// machine): each is compared with the baseline wholly on the GPU its entry names, and each keeps
// the verdict it has alone.
TEST(CompareOnGpu, SeveralCandidatesOnEveryGpuKeepTheirOwnVerdicts) {
  const std::string spin =
      "__global__ void added_delay() { const long long t = clock64(); while (clock64() - t < 4000) {} }\n";
  scratch_dir dir;
  const auto base = dir.write("base.cu", vector_add());
  const auto same = dir.write("same.cu", vector_add());
  const auto slower = dir.write("slower.cu", vector_add_with("    added_delay<<<1, 32>>>();", spin));
  const auto out = dir.path() / "several.json";
  const auto r = run_kopt({"compare", base.string(), same.string(), slower.string(), "--N=1048576", "--gpus", "all",
                           "--json-out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const nlohmann::json document = nlohmann::json::parse(std::ifstream(out));
  ASSERT_EQ(document["results"].size(), 2U) << document.dump().substr(0, 2000);
  const nlohmann::json& alike = document["results"][0];
  const nlohmann::json& delayed = document["results"][1];
  EXPECT_EQ(alike["file"], same.string());
  const std::string outcome = alike["document"]["outcome"];
  EXPECT_TRUE(outcome == "neutral" || outcome == "inconclusive") << alike.dump().substr(0, 2000);
  EXPECT_EQ(delayed["document"]["outcome"], "negative") << delayed.dump().substr(0, 2000);
  for (const nlohmann::json& entry : document["results"]) {
    EXPECT_GE(entry["gpu"].get<int>(), 0);
    EXPECT_FALSE(entry["document"]["gpu_at_start"].is_null()) << "each comparison names the GPU it ran on";
  }
}

// Triton versions taking turns in kopt's Python runner: the module against itself must never be
// called faster or slower, and a version that launches its kernel twice per call is slower. With
// one buffer set per runner, the first failed in 2 of 3 runs on an H100 (the candidate read 2 %
// faster in every round); each runner now takes turns over several sets, as a CUDA kernel does.
compared compare_triton(const std::string& baseline, const std::string& candidate) {
  return compare(baseline, candidate, ".py", {"--rows=4096", "--cols=1024"});
}

std::string triton_softmax() {
  std::ifstream in(testing::source_dir() / "examples" / "triton_softmax.py");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(CompareOnGpu, ATritonModuleAgainstItselfIsNeverCalledFasterOrSlower) {
  const compared c = compare_triton(triton_softmax(), triton_softmax());
  ASSERT_EQ(c.exit_code, 0) << c.stderr_text;
  ASSERT_TRUE(c.document.is_object()) << c.stderr_text;
  const std::string outcome = c.document["outcome"];
  EXPECT_TRUE(outcome == "neutral" || outcome == "inconclusive") << c.document.dump().substr(0, 2000);
  EXPECT_GE(c.document["rounds"].get<int>(), 6);
  // 32 MiB of buffers: each runner takes turns over 32 sets of them, block after block.
  std::set<int> placements[2];
  std::size_t blocks[2] = {0, 0};
  for (const auto& block : c.document["blocks"]) {
    const int version = block["version"] == "candidate" ? 0 : 1;
    placements[version].insert(block["placement"].get<int>());
    ++blocks[version];
  }
  for (int version : {0, 1}) {
    EXPECT_EQ(placements[version].size(), std::min<std::size_t>(32, blocks[version]))
        << c.document["blocks"].dump().substr(0, 2000);
  }
}

TEST(CompareOnGpu, ATritonVersionLaunchingItsKernelTwiceIsNegative) {
  std::string twice = triton_softmax();
  const std::string launch = "    softmax_rows[(rows,)](";
  const auto at = twice.find(launch);
  ASSERT_NE(at, std::string::npos)
      << "examples/triton_softmax.py changed: update the launch this test doubles";
  const auto end = twice.find('\n', at);
  twice.insert(end + 1, twice.substr(at, end + 1 - at));
  const compared c = compare_triton(triton_softmax(), twice);
  ASSERT_EQ(c.exit_code, 0) << c.stderr_text;
  EXPECT_EQ(c.document["outcome"], "negative") << c.document.dump().substr(0, 2000);
  EXPECT_GT(c.document["ratio"].get<double>(), 1.5);
}

}  // namespace
}  // namespace kopt
