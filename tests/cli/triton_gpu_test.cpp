// GPU machine only: Triton kernels through kopt bench and kopt profile, as a user runs them:
// the examples validate and time with the facts of what Triton compiled, and the broken
// variants of tests/data/triton/scale.py are caught with the same messages as CUDA kernels.
#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "profile/raw_csv_kernels.h"
#include "support/kopt_process.h"
#include "support/result_fields.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;

std::string example(const std::string& name) { return (testing::source_dir() / "examples" / name).string(); }
// From $KOPT_SOURCE_DIR, so that a build carried to another machine finds its data there.
std::string test_module(const std::string& name) {
  return (testing::source_dir() / "tests" / "data" / "triton" / name).string();
}

struct bench_outcome {
  process_result process;
  nlohmann::json result;
};

bench_outcome bench(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {}) {
  static scratch_dir dir;
  static int counter = 0;
  const fs::path out = dir.path() / ("r" + std::to_string(++counter) + ".json");
  std::vector<std::string> all = {"bench"};
  all.insert(all.end(), args.begin(), args.end());
  all.insert(all.end(), {"--json-out", out.string()});
  bench_outcome o{run_kopt(all, env), nullptr};
  if (fs::exists(out)) o.result = nlohmann::json::parse(std::ifstream(out));
  return o;
}

bench_outcome scale_variant(const std::string& variant, const std::vector<std::string>& extra = {}) {
  const char* reference = variant == "inout" ? "scale_inout_ref.py" : "scale_ref.py";
  std::vector<std::string> args = {test_module("scale.py"), "--ref", test_module(reference), "--n=1000003",
                                   "--max-seconds", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return bench(args, {{"KOPT_TEST_VARIANT", variant}});
}

TEST(TritonOnGpu, SoftmaxWithThePythonToolkitsCommandLine) {
  const auto o = bench({example("triton_softmax.py"), "--ref=" + example("softmax_ref.py"), "--rows=4096", "--cols=1024"});
  std::printf("%s%s", o.process.stdout_text.c_str(), o.process.stderr_text.c_str());
  ASSERT_EQ(o.process.exit_code, 0);
  const auto& r = o.result;
  EXPECT_EQ(r["status"], "ok");
  EXPECT_EQ(r["backend"], "triton");
  EXPECT_TRUE(r["correctness"]["passed"].get<bool>());
  EXPECT_EQ(r["correctness"]["seeds"].size(), 3u);  // two before timing, one on fresh inputs after
  EXPECT_EQ(r["correctness"]["seeds"][2]["when"], "after timing");
  EXPECT_EQ(r["kernel"]["kernels_per_call"], 1);
  // JIT compilation (hundreds of ms) stays out of the samples.
  EXPECT_LT(r["kernel"]["max_ms"].get<double>(), 5.0);
  EXPECT_GT(r["reference"]["median_ms"].get<double>(), 0.0);
  EXPECT_TRUE(testing::present(r, "speedup_vs_reference"));
  ASSERT_EQ(r["triton"]["kernels"].size(), 1u) << r["triton"].dump(2);
  const auto& k = r["triton"]["kernels"][0];
  EXPECT_EQ(k["name"], "softmax_rows");
  EXPECT_EQ(k["num_warps"], 4);
  EXPECT_EQ(k["constexprs"]["BLOCK"], 1024);
  EXPECT_GT(k["registers_per_thread"].get<int>(), 0);
  EXPECT_EQ(k["spills"], 0);
  // The run's own Triton cache, gone afterwards.
  EXPECT_FALSE(fs::exists(r["triton"]["cache_dir"].get<std::string>()));
  EXPECT_EQ(k["grid"], nlohmann::json::parse("[4096, 1, 1]"));
  EXPECT_NE(o.process.stdout_text.find("triton kernel softmax_rows: grid (4096, 1, 1), BLOCK=1024"), std::string::npos);
}

TEST(TritonOnGpu, MatmulReportsTheAutotunersChoice) {
  const auto o = bench({example("triton_matmul.py"), "--ref", example("triton_matmul_ref.py"), "--M=2048", "--N=2048",
                        "--K=2048", "--max-seconds", "2"});
  std::printf("%s%s", o.process.stdout_text.c_str(), o.process.stderr_text.c_str());
  ASSERT_EQ(o.process.exit_code, 0);
  const auto& k = o.result["triton"]["kernels"][0];
  EXPECT_EQ(k["name"], "matmul_tiles");
  EXPECT_EQ(k["autotuner"]["configs"], 4);
  ASSERT_FALSE(k["autotuner"]["chosen"].is_null());
  EXPECT_EQ(k["autotuner"]["chosen"]["num_warps"], k["num_warps"]);
  EXPECT_EQ(k["autotuner"]["chosen"]["kwargs"]["BLOCK_M"], k["constexprs"]["BLOCK_M"]);
  // The grid function evaluated with the chosen tile: one program per output tile.
  const int tiles = (2048 / k["constexprs"]["BLOCK_M"].get<int>()) * (2048 / k["constexprs"]["BLOCK_N"].get<int>());
  EXPECT_EQ(k["grid"], nlohmann::json::array({tiles, 1, 1}));
}

TEST(TritonOnGpu, CorrectInoutKernelPasses) {
  const auto o = scale_variant("inout");
  EXPECT_EQ(o.process.exit_code, 0) << o.process.stderr_text;
  EXPECT_TRUE(o.result["correctness"]["passed"].get<bool>());
}

TEST(TritonOnGpu, PartialOutputFails) {
  const auto o = scale_variant("half");
  EXPECT_EQ(o.process.exit_code, 1);
  EXPECT_NE(first_line(o.process.stderr_text).find("validation failed (seed 0): partial write: y:"), std::string::npos)
      << o.process.stderr_text;
  EXPECT_FALSE(testing::present(o.result, "kernel"));  // no timing figures for a failed kernel
}

TEST(TritonOnGpu, WritePastTheEndIsCaught) {
  const auto o = scale_variant("past_end");
  EXPECT_EQ(o.process.exit_code, 1);
  const std::string line = first_line(o.process.stderr_text);
  EXPECT_EQ(line.rfind("kopt: failed: out of bounds: wrote ", 0), 0u) << line;
  EXPECT_NE(line.find(" bytes past the end of y"), std::string::npos) << line;
}

TEST(TritonOnGpu, WriteIntoAnInputIsCaught) {
  const auto o = scale_variant("writes_input");
  EXPECT_EQ(o.process.exit_code, 1);
  EXPECT_EQ(first_line(o.process.stderr_text),
            "kopt: failed: write into input: the kernel wrote into its input x (not among setup()'s outputs)");
}

TEST(TritonOnGpu, NanIsCaught) {
  const auto o = scale_variant("nan");
  EXPECT_EQ(o.process.exit_code, 1);
  EXPECT_EQ(o.result["correctness"]["seeds"][0]["outputs"][0]["first_mismatches"][0]["what"], "NaN");
}

TEST(TritonOnGpu, ReadingAnOutputThatIsNotInoutIsCaughtWithTheHint) {
  const auto o = scale_variant("reads_output");
  EXPECT_EQ(o.process.exit_code, 1);
  EXPECT_NE(first_line(o.process.stderr_text).find("list it in setup()'s \"inout\""), std::string::npos)
      << o.process.stderr_text;
}

TEST(TritonOnGpu, SeedBlindnessSetupThatIgnoresTheSeedFails) {
  const auto o = scale_variant("seed_blind");
  EXPECT_EQ(o.process.exit_code, 1);
  EXPECT_EQ(first_line(o.process.stderr_text).rfind("kopt: failed: seed blindness: setup() in ", 0), 0u)
      << o.process.stderr_text;
  EXPECT_FALSE(testing::present(o.result, "kernel"));
}

TEST(TritonOnGpu, SlowTheRivalAModulePatchingTorchCannotReachTheReference) {
  // The module makes `2 * x` return zeros at import and writes zeros: in a shared interpreter
  // the reference would agree with it.
  const auto o = scale_variant("patches_reference");
  EXPECT_EQ(o.process.exit_code, 1);
  EXPECT_NE(first_line(o.process.stderr_text).find("validation failed (seed 0): constant output: y"),
            std::string::npos)
      << o.process.stderr_text;
}

TEST(TritonOnGpu, RunKernelRaisingIsExitOneWithTraceback) {
  const auto o = scale_variant("raises");
  EXPECT_EQ(o.process.exit_code, 1);
  EXPECT_EQ(first_line(o.process.stderr_text),
            "kopt: failed: run_kernel() in " + test_module("scale.py") +
                " raised ValueError: the block size does not divide n");
  EXPECT_NE(o.process.stderr_text.find("Traceback"), std::string::npos);
}

TEST(TritonOnGpu, IllegalAddressIsACrashNotADeadKopt) {
  const auto o = scale_variant("faults");
  EXPECT_EQ(o.process.exit_code, 1) << o.process.stderr_text;
  EXPECT_EQ(o.result["status"], "crashed") << o.result.dump(2);
}

TEST(TritonOnGpu, KernelThatNeverReturnsIsKilledAtTheTimeout) {
  const auto o = scale_variant("hangs", {"--timeout", "20"});
  EXPECT_EQ(o.process.exit_code, 1) << o.process.stderr_text;
  EXPECT_EQ(o.result["status"], "timed_out");
}

TEST(TritonOnGpu, SanitizerMemcheckFindsTheIllegalAddress) {
  const auto o = scale_variant("faults", {"--sanitize", "memcheck", "--timeout", "240"});
  std::printf("%s%s", o.process.stdout_text.c_str(), o.process.stderr_text.c_str());
  EXPECT_EQ(o.process.exit_code, 1);
  ASSERT_TRUE(testing::present(o.result, "sanitizer")) << o.result.dump(2);
  EXPECT_NE(o.result["sanitizer"]["status"], "clean");
  EXPECT_FALSE(testing::present(o.result, "kernel"));
}

TEST(TritonOnGpu, SanitizerMemcheckLetsACleanKernelGoOnToTiming) {
  const auto o = scale_variant("correct", {"--sanitize", "memcheck", "--timeout", "240"});
  std::printf("%s%s", o.process.stdout_text.c_str(), o.process.stderr_text.c_str());
  ASSERT_EQ(o.process.exit_code, 0);
  EXPECT_EQ(o.result["sanitizer"]["status"], "clean");
  EXPECT_TRUE(testing::present(o.result, "kernel"));
}

TEST(TritonOnGpu, ProfileCapturesOnlyTheTritonKernel) {
  scratch_dir dir;
  const fs::path out = dir.path() / "p";
  const auto r = run_kopt({"profile", example("triton_softmax.py"), "--ref", example("softmax_ref.py"), "--rows=4096",
                           "--cols=1024", "--out", out.string()});
  std::printf("%s%s", r.stdout_text.c_str(), r.stderr_text.c_str());
  ASSERT_EQ(r.exit_code, 0);
  const auto kernels = profile::read_profiled_kernels(read_text_file(out / "ncu_raw.csv"));
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_NE(kernels[0].name.find("softmax_rows"), std::string::npos) << kernels[0].name;
}

}  // namespace
}  // namespace kopt
