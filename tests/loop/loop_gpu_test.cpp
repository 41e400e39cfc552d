// GPU machine only: kopt loop end to end, with real builds, the judge, timing, ncu and the
// analysis. A scripted agent swaps in prepared versions of a softmax (naive -> one block per
// row -> vectorized); an unchanged version resubmitted (CUDA, and Triton) must not be called faster or
// slower; a version right only at the benchmarked shape is rejected by --check-dims; a round of two
// candidates (--candidates 2) keeps the faster; a Triton module is tuned in the loop (--tune); and the final
// confirmation confirms a clean best and rejects one with a shared-memory race that the judge's values cannot
// show.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/kopt_process.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;
using testing::run_kopt;
using testing::scratch_dir;

std::string read_file(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

// A file that kopt writes after the call that started it returned (ncu's text pages).
bool appears_within(const fs::path& file, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!fs::exists(file)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

// softmax_block.cu with its float4 path switched off: one block per row, scalar loads.
std::string block_scalar_version() {
  std::string text = read_file(testing::source_dir() / "examples" / "softmax_block.cu");
  const std::string vector_branch = "if (cols % 4 == 0 && aligned) {";
  const auto at = text.find(vector_branch);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, vector_branch.size(), "if (false && aligned) {");
  return text;
}

TEST(LoopOnGpu, ScriptedAgentTakesSoftmaxFromNaiveToVectorizedAndTheMemoryLearns) {
  scratch_dir work;
  const fs::path examples = testing::source_dir() / "examples";
  fs::copy_file(examples / "softmax_naive.cu", work.path() / "softmax.cu");
  fs::copy_file(examples / "softmax_ref.py", work.path() / "softmax_ref.py");
  fs::create_directories(work.path() / "versions");
  write_file(work.path() / "versions" / "v1.cu", block_scalar_version());
  fs::copy_file(examples / "softmax_block.cu", work.path() / "versions" / "v2.cu");
  write_file(work.path() / "versions" / "v1.tags", "- one_block_per_row\n- warp_shuffle_reduction\n");
  write_file(work.path() / "versions" / "v2.tags", "- vectorized_float4_io\n");
  write_file(work.path() / "agent.sh",
             "#!/bin/sh\nset -e\nd=$(dirname \"$0\")/versions\n"
             "cp \"$d/v$KOPT_NEXT_ITERATION.cu\" \"$KOPT_KERNEL\"\n"
             "cat \"$d/v$KOPT_NEXT_ITERATION.tags\" >> \"$KOPT_PROPOSAL\"\n");
  const fs::path memory_db = work.path() / "memory.db";

  const auto r = run_kopt({"loop", (work.path() / "softmax.cu").string(), "--ref",
                           (work.path() / "softmax_ref.py").string(), "--rows=4096", "--cols=1024",
                           "--max-iterations", "2", "--agent", "sh " + (work.path() / "agent.sh").string(),
                           "--memory-db", memory_db.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const auto manifest = nlohmann::json::parse(r.stdout_text);
  const fs::path run_dir = manifest["run_dir"].get<std::string>();
  const auto& iterations = manifest["iterations"];
  ASSERT_EQ(iterations.size(), 3u) << r.stdout_text;
  EXPECT_EQ(iterations[0]["outcome"], "baseline");
  EXPECT_EQ(iterations[1]["outcome"], "positive") << iterations[1].dump();
  // float4 over scalar loads on a DRAM-bound row: faster or within the noise, never slower.
  const std::string v2 = iterations[2]["outcome"];
  EXPECT_TRUE(v2 == "positive" || v2 == "neutral" || v2 == "inconclusive") << iterations[2].dump();
  EXPECT_GE(manifest["best"].get<int>(), 1);
  for (int k = 0; k < 3; ++k) {
    const fs::path dir = run_dir / ("iter_v" + std::to_string(k));
    for (const char* file : {"benchmark_result.json", "iteration_summary.md", "optimization_proposal.md"}) {
      EXPECT_TRUE(fs::exists(dir / file)) << dir / file;
    }
    // The baseline and each version that became the best are profiled; a version that is not
    // faster is not.
    const bool profiled = k == 0 || iterations[k]["outcome"] == "positive";
    for (const char* file : {"full.ncu-rep", "ncu_raw.csv", "analysis.md"}) {
      EXPECT_EQ(fs::exists(dir / file), profiled) << dir / file;
    }
    EXPECT_EQ(iterations[k]["bottleneck"].get<std::string>().empty(), !profiled) << iterations[k].dump();
    // ncu's pages for a person come after the iteration, from a process of their own.
    for (const char* page : {"full_summary.txt", "full_details.txt"}) {
      if (!profiled) continue;
      ASSERT_TRUE(appears_within(dir / page, std::chrono::seconds(120))) << dir / page;
      EXPECT_NE(read_file(dir / page).find("softmax"), std::string::npos) << dir / page;
    }
  }
  EXPECT_GT(iterations[1]["speedup_vs_reference"].get<double>(), iterations[0]["speedup_vs_reference"].get<double>());
  EXPECT_TRUE(fs::exists(run_dir / "final_summary.md"));

  const auto memory = run_kopt({"memory", "list", "--memory-db", memory_db.string(), "--json"});
  ASSERT_EQ(memory.exit_code, 0) << memory.stderr_text;
  EXPECT_NE(memory.stdout_text.find("one_block_per_row"), std::string::npos) << memory.stdout_text;
  EXPECT_NE(memory.stdout_text.find("vectorized_float4_io"), std::string::npos) << memory.stdout_text;
}

// A loop of one iteration on `example` (with `first_lines` before its text), then the same code
// submitted again (a comment added) as v1 of the run: v1's record, and the run's folder.
struct resubmitted {
  nlohmann::json manifest;
  fs::path run_dir;
};

resubmitted submit_again(const scratch_dir& work, const std::string& example, const std::string& reference,
                         const std::vector<std::string>& dims, const std::string& comment,
                         const std::string& first_lines = "") {
  const fs::path examples = testing::source_dir() / "examples";
  const fs::path kernel = work.path() / example;
  write_file(kernel, first_lines + read_file(examples / example));
  std::vector<std::string> first = {"loop", kernel.string(), "--ref", (examples / reference).string()};
  first.insert(first.end(), dims.begin(), dims.end());
  first.insert(first.end(),
               {"--max-iterations", "1", "--memory-db", (work.path() / "m.db").string(), "--json"});
  const auto v0 = run_kopt(first);
  EXPECT_EQ(v0.exit_code, 0) << v0.stdout_text << v0.stderr_text;
  if (v0.exit_code != 0) return {};
  const std::string run_dir = nlohmann::json::parse(v0.stdout_text)["run_dir"];
  write_file(kernel, read_file(kernel) + "\n" + comment + " unchanged code\n");
  std::vector<std::string> second = first;
  second.insert(second.end(), {"--run-dir", run_dir});
  const auto v1 = run_kopt(second);
  EXPECT_EQ(v1.exit_code, 0) << v1.stdout_text << v1.stderr_text;
  if (v1.exit_code != 0) return {};
  return {nlohmann::json::parse(v1.stdout_text), run_dir};
}

// v1, the same code as v0, is neither faster nor slower, and was compared in turns.
void expect_neither_faster_nor_slower(const nlohmann::json& manifest) {
  ASSERT_TRUE(manifest.is_object());
  const std::string outcome = manifest["iterations"][1]["outcome"];
  EXPECT_TRUE(outcome == "neutral" || outcome == "inconclusive") << manifest["iterations"][1].dump();
  EXPECT_EQ(manifest["best"], 0);
  const auto& comparison = manifest["iterations"][1]["comparison"];
  EXPECT_EQ(comparison["method"].get<std::string>().rfind("in turns", 0), 0u) << comparison.dump();
  EXPECT_GE(comparison["rounds"].get<int>(), 6) << comparison.dump();
  EXPECT_TRUE(comparison["warnings"].empty()) << comparison.dump();
}

TEST(LoopOnGpu, TheSameVersionSubmittedAgainIsNeitherFasterNorSlower) {
  scratch_dir work;
  const resubmitted r = submit_again(work, "vector_add.cu", "vector_add_ref.cu", {"--N=16777216"}, "//");
  // Compared in turns with v0's library, both held open side by side.
  expect_neither_faster_nor_slower(r.manifest);
  EXPECT_TRUE(fs::exists(r.run_dir / "iter_v1" / "comparison.json"));
}

// The same for a Triton module: held open in kopt's Python runner from its snapshot (copied
// beside the kernel, where the module it imports lies), on the problem made again from the
// candidate, and timed in turns over several buffer sets.
TEST(LoopOnGpu, TheSameTritonVersionSubmittedAgainIsComparedInTurnsAndNeitherFasterNorSlower) {
  scratch_dir work;
  work.write("softmax_note.py", "NOTE = 'a module beside the kernel'\n");
  const resubmitted r =
      submit_again(work, "triton_softmax.py", "softmax_ref.py", {"--rows=4096", "--cols=1024"}, "#",
                   "import softmax_note  # beside the kernel, not in the run folder\n");
  expect_neither_faster_nor_slower(r.manifest);
  ASSERT_TRUE(fs::exists(r.run_dir / "iter_v1" / "comparison.json"));
  const auto record = nlohmann::json::parse(read_file(r.run_dir / "iter_v1" / "comparison.json"));
  std::set<int> placements;
  for (const auto& block : record["blocks"]) placements.insert(block["placement"].get<int>());
  EXPECT_GT(placements.size(), 1u) << "each runner takes turns over several buffer sets";
}

// kopt loop --tune on a Triton module that imports a module beside it (docs/tune.md): each
// version's configurations are measured one at a time, the version is judged and compared in turns
// at its winning values from copies beside the kernel, its snapshot is the agent's text with the
// winner pinned (no line of the tune's own copies), and no copy of kopt's is left beside the kernel.
TEST(LoopOnGpu, ATritonModuleIsTunedInTheLoopAndComparedBesideTheKernel) {
  scratch_dir work;
  work.write("matmul_note.py", "NOTE = 'a module beside the kernel'\n");
  const std::string first_line = "import matmul_note  # beside the kernel, not in the run folder\n";
  const resubmitted r = submit_again(
      work, "triton_matmul.py", "triton_matmul_ref.py",
      {"--M=1024", "--N=1024", "--K=1024", "--tune", "--tune-budget", "2", "--tune-strategy", "random"}, "#",
      first_line);
  ASSERT_TRUE(r.manifest.is_object());
  for (const int k : {0, 1}) {
    const auto& v = r.manifest["iterations"][k];
    ASSERT_TRUE(v["tuned"].is_object()) << v.dump();
    EXPECT_EQ(v["tuned"]["defines"].size(), 5u)
        << "BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages: " << v.dump();
    EXPECT_GE(v["tuned"]["measured"].get<int>(), 1) << v.dump();
    const std::string snapshot = read_file(r.run_dir / v["snapshot"].get<std::string>());
    EXPECT_EQ(snapshot.rfind(first_line, 0), 0u) << "the agent's text first";
    EXPECT_NE(snapshot.find("_kopt_pin(globals(), "), std::string::npos)
        << snapshot.substr(snapshot.size() - 600);
    EXPECT_EQ(snapshot.find("_kopt_sys"), std::string::npos) << "no line of the tune's own copy";
  }
  EXPECT_EQ(r.manifest["iterations"][0]["outcome"], "baseline");
  const auto& v1 = r.manifest["iterations"][1];
  EXPECT_NE(v1["outcome"], "rejected") << v1.dump();
  EXPECT_EQ(v1["comparison"]["method"].get<std::string>().rfind("in turns", 0), 0u) << v1.dump();
  for (const auto& entry : fs::directory_iterator(work.path()))
    EXPECT_EQ(entry.path().filename().string().find(".triton_matmul.kopt-"), std::string::npos)
        << entry.path();
}

// The softmax example and its reference in a scratch folder, with an agent that copies what was
// prepared under versions/ (v1.cu and v1.tags; or with candidates, v1/cand_J.cu and cand_J.md).
void write_softmax_run(const fs::path& work) {
  const fs::path examples = testing::source_dir() / "examples";
  fs::copy_file(examples / "softmax_naive.cu", work / "softmax.cu");
  fs::copy_file(examples / "softmax_ref.py", work / "softmax_ref.py");
  fs::create_directories(work / "versions");
  write_file(work / "agent.sh",
             "#!/bin/sh\nset -e\nd=$(dirname \"$0\")/versions\n"
             "if [ -n \"$KOPT_CANDIDATES_DIR\" ]; then cp \"$d/v$KOPT_NEXT_ITERATION\"/* "
             "\"$KOPT_CANDIDATES_DIR\"; exit 0; fi\n"
             "cp \"$d/v$KOPT_NEXT_ITERATION.cu\" \"$KOPT_KERNEL\"\n"
             "cat \"$d/v$KOPT_NEXT_ITERATION.tags\" >> \"$KOPT_PROPOSAL\"\n");
}

std::vector<std::string> softmax_loop(const fs::path& work, const std::string& max_iterations) {
  return {"loop",
          (work / "softmax.cu").string(),
          "--ref",
          (work / "softmax_ref.py").string(),
          "--rows=4096",
          "--cols=1024",
          "--max-iterations",
          max_iterations,
          "--agent",
          "sh " + (work / "agent.sh").string(),
          "--memory-db",
          (work / "memory.db").string(),
          "--json"};
}

TEST(LoopOnGpu, AVersionRightOnlyAtTheBenchmarkedShapeIsRejectedByCheckDims) {
  scratch_dir work;
  write_softmax_run(work.path());
  // v1 assumes cols is a multiple of 1024: right and fast at 4096 x 1024, writes nothing at 1000 x 1000.
  fs::copy_file(testing::source_dir() / "tests" / "data" / "loop" / "softmax_cols_multiple_of_1024.cu",
                work.path() / "versions" / "v1.cu");
  write_file(work.path() / "versions" / "v1.tags", "- one_block_per_row\n- assume_cols_multiple_of_1024\n");
  fs::copy_file(testing::source_dir() / "examples" / "softmax_block.cu", work.path() / "versions" / "v2.cu");
  write_file(work.path() / "versions" / "v2.tags", "- one_block_per_row\n- vectorized_float4_io\n");
  std::vector<std::string> args = softmax_loop(work.path(), "2");
  args.insert(args.end(), {"--check-dims", "--rows=1000 --cols=1000"});

  const auto r = run_kopt(args);
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const auto manifest = nlohmann::json::parse(r.stdout_text);
  const fs::path run_dir = manifest["run_dir"].get<std::string>();
  EXPECT_EQ(manifest["frozen"]["check_dims"], nlohmann::json::array({"--rows=1000 --cols=1000"}));
  const auto& iterations = manifest["iterations"];
  ASSERT_EQ(iterations.size(), 3u) << r.stdout_text;
  for (int k = 0; k < 3; ++k) ASSERT_EQ(iterations[k]["checks"].size(), 1u) << iterations[k].dump();

  EXPECT_EQ(iterations[0]["outcome"], "baseline") << iterations[0].dump();
  EXPECT_EQ(iterations[0]["checks"][0]["status"], "passed");

  const auto& v1 = iterations[1];
  EXPECT_EQ(v1["outcome"], "rejected") << v1.dump();
  const std::string reason = v1["reason"];
  EXPECT_EQ(reason.rfind("fails at --rows=1000 --cols=1000: ", 0), 0u) << reason;
  EXPECT_EQ(v1["checks"][0]["status"], "failed");
  // Timed and right at the benchmarked shape: only the extra shape caught it.
  EXPECT_GT(v1["median_ms"].get<double>(), 0) << v1.dump();
  const auto main_shape = nlohmann::json::parse(read_file(run_dir / "iter_v1" / "benchmark_result.json"));
  EXPECT_EQ(main_shape["status"], "ok") << main_shape.dump();
  const auto at_shape = nlohmann::json::parse(
      read_file(run_dir / "iter_v1" / "check_shapes" / "shape_1" / "benchmark_result.json"));
  EXPECT_EQ(at_shape["status"], "failed") << at_shape.dump();
  EXPECT_EQ(at_shape["correctness"]["passed"], false) << at_shape.dump();
  EXPECT_TRUE(at_shape["kernel"].is_null()) << "validation only: nothing timed";
  EXPECT_FALSE(fs::exists(run_dir / "iter_v1" / "full.ncu-rep")) << "a rejected version is not profiled";
  const std::string fingerprint = v1["fingerprint"];
  const auto blocked = manifest["blocked"];
  EXPECT_NE(std::find(blocked.begin(), blocked.end(), fingerprint), blocked.end()) << blocked.dump();

  EXPECT_EQ(iterations[2]["checks"][0]["status"], "passed") << iterations[2].dump();
  EXPECT_EQ(iterations[2]["outcome"], "positive") << iterations[2].dump();
  EXPECT_EQ(manifest["best"], 2);

  // A later call with other extra shapes is refused like other dimensions.
  std::vector<std::string> other = softmax_loop(work.path(), "3");
  other.insert(other.end(), {"--run-dir", run_dir.string(), "--check-dims", "--rows=999 --cols=1000"});
  const auto refused = run_kopt(other);
  EXPECT_EQ(refused.exit_code, 2) << refused.stdout_text << refused.stderr_text;
  EXPECT_NE(refused.stderr_text.find("--check-dims"), std::string::npos) << refused.stderr_text;
}

// A round of a faster and an unchanged candidate, run with `extra` options.
void check_round_of_two(const std::vector<std::string>& extra) {
  scratch_dir work;
  write_softmax_run(work.path());
  const fs::path round = work.path() / "versions" / "v1";
  fs::create_directories(round);
  write_file(round / "cand_1.cu", block_scalar_version());
  write_file(round / "cand_1.md", "## Strategy tags\n\n- one_block_per_row\n- warp_shuffle_reduction\n");
  write_file(round / "cand_2.cu", read_file(work.path() / "softmax.cu") + "\n// unchanged code\n");
  write_file(round / "cand_2.md", "## Strategy tags\n\n- comment_only\n");
  std::vector<std::string> args = softmax_loop(work.path(), "1");
  args.insert(args.end(), {"--candidates", "2"});
  args.insert(args.end(), extra.begin(), extra.end());

  const auto r = run_kopt(args);
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const auto manifest = nlohmann::json::parse(r.stdout_text);
  const fs::path run_dir = manifest["run_dir"].get<std::string>();
  ASSERT_EQ(manifest["iterations"].size(), 2u) << r.stdout_text;
  const auto& v1 = manifest["iterations"][1];
  ASSERT_EQ(v1["candidates"].size(), 2u) << v1.dump();
  EXPECT_EQ(v1["candidates"][0]["outcome"], "positive") << v1.dump();
  const std::string unchanged = v1["candidates"][1]["outcome"];
  EXPECT_TRUE(unchanged == "neutral" || unchanged == "inconclusive") << v1.dump();
  EXPECT_EQ(v1["chosen_candidate"], 1);
  EXPECT_EQ(v1["outcome"], "positive");
  for (const auto& c : v1["candidates"]) {
    // Each comparison names the GPU it ran on, with its state at the start and the end.
    EXPECT_EQ(c["comparison"]["gpu"], 0) << c.dump();
    EXPECT_EQ(c["comparison"]["gpu_at_start"]["uuid"].get<std::string>().rfind("GPU-", 0), 0u) << c.dump();
    EXPECT_EQ(c["comparison"]["gpu_at_end"]["ordinal"], 0) << c.dump();
  }
  EXPECT_EQ(manifest["best"], 1);
  for (int j = 1; j <= 2; ++j) {
    const fs::path dir = run_dir / "iter_v1" / ("cand_" + std::to_string(j));
    for (const char* file : {"benchmark_result.json", "candidate_summary.md"}) {
      EXPECT_TRUE(fs::exists(dir / file)) << dir / file;
    }
    // Only the positive candidate is profiled.
    for (const char* file : {"full.ncu-rep", "ncu_raw.csv", "analysis.md"}) {
      EXPECT_EQ(fs::exists(dir / file), j == 1) << dir / file;
    }
  }
  EXPECT_TRUE(fs::exists(run_dir / "iter_v1" / "softmax_v1.cu"));
  EXPECT_TRUE(fs::exists(run_dir / "iter_v1" / "full.ncu-rep"));
  EXPECT_EQ(read_file(work.path() / "softmax.cu"), block_scalar_version())
      << "the kernel file holds the best version";
  const std::string summary = read_file(run_dir / "final_summary.md");
  EXPECT_NE(summary.find("| 1 cand_1 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| 1 cand_2 |"), std::string::npos) << summary;

  const auto memory =
      run_kopt({"memory", "list", "--memory-db", (work.path() / "memory.db").string(), "--json"});
  ASSERT_EQ(memory.exit_code, 0) << memory.stderr_text;
  EXPECT_NE(memory.stdout_text.find("one_block_per_row"), std::string::npos) << memory.stdout_text;
  EXPECT_NE(memory.stdout_text.find("comment_only"), std::string::npos) << memory.stdout_text;
}

TEST(LoopOnGpu, ARoundOfTwoCandidatesKeepsTheFasterAndRecordsBoth) { check_round_of_two({}); }

// --gpus all on a machine of one GPU: the round takes its one slot and ends as without it.
TEST(LoopOnGpu, ARoundOnEveryGpuOfAOneGpuMachineEndsAsOnOne) { check_round_of_two({"--gpus", "all"}); }

TEST(LoopOnGpu, TheBestOfAShortLoopIsConfirmedFromItsSnapshot) {
  scratch_dir work;
  write_softmax_run(work.path());
  fs::copy_file(testing::source_dir() / "examples" / "softmax_block.cu", work.path() / "versions" / "v1.cu");
  write_file(work.path() / "versions" / "v1.tags", "- one_block_per_row\n- vectorized_float4_io\n");

  const auto r = run_kopt(softmax_loop(work.path(), "1"));
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const auto out = nlohmann::json::parse(r.stdout_text);
  const fs::path run_dir = out["run_dir"].get<std::string>();
  ASSERT_EQ(out["iterations"].size(), 2u) << r.stdout_text;
  EXPECT_EQ(out["iterations"][1]["outcome"], "positive") << out["iterations"][1].dump();
  const auto& c = out["confirmation"];
  ASSERT_TRUE(c.is_object()) << r.stdout_text;
  EXPECT_EQ(c["verdict"], "confirmed") << c.dump();
  EXPECT_EQ(c["best"], 1) << c.dump();
  ASSERT_EQ(c["attempts"].size(), 1u) << c.dump();
  const auto& a = c["attempts"][0];
  EXPECT_TRUE(a["confirmed"].get<bool>()) << a.dump();
  ASSERT_EQ(a["sanitizers"].size(), 3u) << a.dump();
  for (const auto& pass : a["sanitizers"]) EXPECT_EQ(pass["status"], "clean") << pass.dump();
  EXPECT_EQ(a["outcome_vs_baseline"], "positive") << a.dump();
  EXPECT_EQ(a["method"].get<std::string>().rfind("in turns", 0), 0u) << a.dump();
  EXPECT_GT(a["median_ms"].get<double>(), 0) << a.dump();
  EXPECT_LT(a["ratio_vs_baseline"].get<double>(), 1) << a.dump();
  EXPECT_EQ(out["best"], 1);
  EXPECT_TRUE(fs::exists(run_dir / "confirmation.json"));
  EXPECT_EQ(read_file(work.path() / "softmax.cu"), read_file(work.path() / "versions" / "v1.cu"))
      << "the kernel file holds what it held before the confirmation";

  const auto report = run_kopt({"report", run_dir.string(), "--json"});
  ASSERT_EQ(report.exit_code, 0) << report.stderr_text;
  const auto document = nlohmann::json::parse(report.stdout_text);
  EXPECT_EQ(document["confirmation"]["state"], "confirmed") << document["confirmation"].dump();
  EXPECT_EQ(document["confirmation"]["record"]["attempts"][0]["median_ms"], a["median_ms"]);
}

TEST(LoopOnGpu, ABestWithASharedMemoryRaceThatPassesTheJudgeIsRejectedByTheConfirmation) {
  scratch_dir work;
  write_softmax_run(work.path());
  // Right every time (the race never changes a value), and faster than v0: the judge passes it.
  fs::copy_file(testing::source_dir() / "tests" / "data" / "loop" / "softmax_racy.cu", work.path() / "versions" / "v1.cu");
  write_file(work.path() / "versions" / "v1.tags", "- one_block_per_row\n- racy_block_flag\n");

  const auto r = run_kopt(softmax_loop(work.path(), "1"));
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  const auto out = nlohmann::json::parse(r.stdout_text);
  const fs::path run_dir = out["run_dir"].get<std::string>();
  ASSERT_EQ(out["iterations"].size(), 2u) << r.stdout_text;
  const auto main_shape = nlohmann::json::parse(read_file(run_dir / "iter_v1" / "benchmark_result.json"));
  EXPECT_EQ(main_shape["status"], "ok") << "the judge alone passed it: " << main_shape.dump();
  const auto& c = out["confirmation"];
  ASSERT_TRUE(c.is_object()) << r.stdout_text;
  EXPECT_EQ(c["verdict"], "none_survived") << c.dump();
  EXPECT_TRUE(c["best"].is_null()) << c.dump();
  ASSERT_EQ(c["attempts"].size(), 1u) << c.dump();
  const auto& a = c["attempts"][0];
  EXPECT_FALSE(a["confirmed"].get<bool>()) << a.dump();
  const std::string reason = a["reason"];
  EXPECT_EQ(reason.rfind("under compute-sanitizer racecheck: ", 0), 0u) << reason;
  ASSERT_EQ(a["sanitizers"].size(), 3u) << a.dump();
  EXPECT_EQ(a["sanitizers"][0]["status"], "clean") << a.dump();  // memcheck
  EXPECT_EQ(a["sanitizers"][1]["status"], "clean") << a.dump();  // initcheck
  EXPECT_EQ(a["sanitizers"][2]["status"], "errors") << a.dump();  // racecheck
  EXPECT_EQ(out["iterations"][1]["outcome"], "rejected") << out["iterations"][1].dump();
  EXPECT_EQ(out["best"], 0);
  const auto blocked = out["blocked"];
  EXPECT_NE(std::find(blocked.begin(), blocked.end(), out["iterations"][1]["fingerprint"]), blocked.end())
      << blocked.dump();
}

}  // namespace
}  // namespace kopt
