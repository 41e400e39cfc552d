// The loop's orchestration on the CPU, through scripted measurements: what each iteration
// decides and writes, how the memory learns, and that the goalposts cannot move.
#include "loop/loop_step.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "core/document.h"

#include "core/error.h"
#include "core/files.h"
#include "loop/run_directory.h"
#include "loop/run_settings.h"
#include "loop/strategy_tags.h"
#include "memory/memory_store.h"
#include "memory/strategy_fingerprint.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using testing::scripted_gpu;
using testing::softmax_version;

class LoopStep : public ::testing::Test {
 protected:
  void SetUp() override {
    m_kernel = m_work.write("softmax.cu", softmax_version(1.0));
    fs::copy_file(kopt::testing::source_dir() / "examples" / "softmax_ref.py", m_work.path() / "softmax_ref.py");
    m_services = m_gpu.services();
  }

  loop_settings settings() const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.ref = m_work.path() / "softmax_ref.py";
    s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
    s.max_iterations = 6;
    s.run_dir = m_run_dir;
    s.memory_db = m_work.path() / "memory.db";
    return s;
  }

  // Writes version `speed` with `tags` named in the previous iteration's proposal, then runs a step.
  step_outcome next(double speed, const std::vector<std::string>& tags, const std::string& extra = "") {
    testing::hand_over_version(m_kernel, m_run_dir, softmax_version(speed, extra), tags);
    return run_loop_step(settings(), m_services);
  }

  step_outcome first() {
    step_outcome v0 = run_loop_step(settings(), m_services);
    m_run_dir = v0.run_dir;
    return v0;
  }

  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  fs::path m_run_dir;
  scripted_gpu m_gpu;
  loop_services m_services;
};

TEST_F(LoopStep, TheFirstCallChecksTheMachineMeasuresTheBaselineAndWritesTheToolkitsLayout) {
  const step_outcome v0 = first();
  EXPECT_EQ(v0.run_dir.parent_path(), m_work.path() / "optimize_runs");
  EXPECT_EQ(v0.run_dir.filename().string().rfind("run_", 0), 0u);
  for (const char* file : {"run_manifest.json", "final_summary.md", "preflight_check.md", "preflight_check.json"}) {
    EXPECT_TRUE(fs::exists(v0.run_dir / file)) << file;
  }
  const fs::path dir = v0.run_dir / "iter_v0";
  for (const char* file : {"softmax_v0.cu", "benchmark_result.json", "benchmark.stdout.txt", "benchmark.stderr.txt",
                           "full.ncu-rep", "ncu_raw.csv", "ncu_details.csv", "analysis.md", "analysis.json",
                           "iteration_summary.md", "optimization_proposal.md", "softmax_ref.py"}) {
    EXPECT_TRUE(fs::exists(dir / file)) << file;
  }
  ASSERT_TRUE(v0.record);
  EXPECT_EQ(enum_name(v0.record->outcome), "baseline");
  EXPECT_EQ(v0.record->tags, std::vector<std::string>{"baseline"});
  EXPECT_TRUE(v0.record->eligible);
  EXPECT_EQ(v0.manifest.best, 0);
  EXPECT_FALSE(v0.record->bottleneck.empty());
  const std::string proposal = read_text_file(dir / "optimization_proposal.md");
  EXPECT_NE(proposal.find("## Strategy tags"), std::string::npos);
  EXPECT_NE(proposal.find("iter_v0/softmax_v0.cu"), std::string::npos);
  EXPECT_NE(proposal.find("## Ranked suggestions\n\n1. "), std::string::npos) << proposal;
  EXPECT_TRUE(parse_strategy_tags(proposal).empty()) << "the template's tag list starts empty";
  EXPECT_EQ(read_run_manifest(v0.run_dir).iterations.size(), 1u);
  // The exact commands that measure this version again, as the toolkit's summary had them.
  const std::string summary = read_text_file(dir / "iteration_summary.md");
  EXPECT_NE(summary.find("## Commands"), std::string::npos) << summary;
  EXPECT_NE(summary.find("kopt bench " + (dir / "softmax_v0.cu").string() + " --ref " +
                         (m_work.path() / "softmax_ref.py").string() + " --rows=4096 --cols=1024"),
            std::string::npos)
      << summary;
}

// What a version printed while measured (its printf) is kept beside its bench result.
TEST_F(LoopStep, WhatTheKernelPrintedIsKeptInItsIterationsFolder) {
  const step_outcome v0 = first();
  EXPECT_FALSE(fs::exists(v0.run_dir / "iter_v0" / "kernel_output.txt")) << "v0 printed nothing";
  const step_outcome v1 = next(0.8, {"debug_print"}, "// prints: row 0 max 3.5");
  const fs::path printed = v1.run_dir / "iter_v1" / "kernel_output.txt";
  ASSERT_TRUE(fs::exists(printed));
  EXPECT_EQ(read_text_file(printed), "--- standard output (14 bytes) ---\nrow 0 max 3.5\n");
}

TEST_F(LoopStep, FasterBeyondTheNoiseIsPositiveAndBecomesTheBest) {
  first();
  const step_outcome v1 = next(0.8, {"Vectorized float4 IO", "thread_retile_128"});
  EXPECT_EQ(enum_name(v1.record->outcome), "positive") << v1.record->reason;
  EXPECT_EQ(v1.manifest.best, 1);
  EXPECT_EQ(v1.record->parent, 0);
  EXPECT_EQ(v1.record->tags, (std::vector<std::string>{"thread_retile_128", "vectorized_float4_io"}));
  EXPECT_EQ(v1.record->fingerprint, memory::strategy_fingerprint("cuda", v1.record->tags));
  const auto history = memory::memory_store::open(settings().memory_db).history(v1.record->fingerprint);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].outcome, "positive");
  EXPECT_EQ(history[0].scope.op, "softmax");
  EXPECT_EQ(history[0].scope.dims, "--rows=4096 --cols=1024");
  EXPECT_EQ(history[0].scope.bottleneck, v1.manifest.find(0)->bottleneck) << "keyed by the diagnosis it addressed";
}

TEST_F(LoopStep, AnUnchangedKernelIsNeutralNotPositive) {
  first();
  const step_outcome v1 = next(1.0, {"comment_only"});
  EXPECT_EQ(enum_name(v1.record->outcome), "neutral") << v1.record->reason;
  EXPECT_EQ(v1.manifest.best, 0);
}

TEST_F(LoopStep, AVersionIsComparedWithItsParentInTurnsOnTheLibrariesBenchMeasured) {
  first();
  EXPECT_TRUE(fs::exists(m_run_dir / "iter_v0" / "kernel_library.so"));
  const step_outcome v1 = next(1.03, {"retile_64"});
  EXPECT_EQ(m_gpu.compare_calls, 1);
  EXPECT_EQ(m_gpu.profile_calls, 1) << "only v0 is profiled: a slower version costs no ncu pass";
  EXPECT_FALSE(fs::exists(m_run_dir / "iter_v1" / "full.ncu-rep"));
  EXPECT_TRUE(v1.record->bottleneck.empty()) << "no diagnosis without a profile";
  EXPECT_EQ(enum_name(v1.record->outcome), "negative") << v1.record->reason;
  EXPECT_NE(v1.record->reason.find("in turns"), std::string::npos) << v1.record->reason;
  ASSERT_TRUE(v1.record->comparison);
  const version_comparison& c = *v1.record->comparison;
  EXPECT_EQ(c.file, "comparison.json");
  EXPECT_EQ(c.stop, "settled");
  const json kept = read_json_file(m_run_dir / run_manifest_name)["iterations"][1]["comparison"];
  EXPECT_EQ(kept["ratio"], c.ratio);
  EXPECT_FALSE(kept.contains("candidate_samples_ms")) << "the manifest keeps the summary";
  const json whole = read_json_file(m_run_dir / "iter_v1" / "comparison.json");
  EXPECT_EQ(whole["round_ratios"].size(), c.rounds);
  EXPECT_FALSE(whole["candidate_samples_ms"].empty());
}

TEST_F(LoopStep, EachStepsWallTimeIsRecordedAndSummarised) {
  const step_outcome v0 = first();
  EXPECT_FALSE(v0.record->step_seconds.contains("compare")) << "the baseline is compared with nothing";
  for (const char* step : {"bench", "profile", "analyze"}) {
    EXPECT_TRUE(v0.record->step_seconds.contains(step)) << step << " in " << v0.record->step_seconds.dump();
  }
  const step_outcome v1 = next(0.8, {"retile_64"});
  ASSERT_EQ(enum_name(v1.record->outcome), "positive") << v1.record->reason;
  const json& steps = v1.record->step_seconds;
  for (const char* step : {"bench", "profile", "analyze", "compare"}) {
    ASSERT_TRUE(steps.contains(step)) << step << " in " << steps.dump();
    EXPECT_GE(steps[step].get<double>(), 0.0);
  }
  EXPECT_FALSE(steps.contains("check_dims")) << "no extra shapes were asked for";
  EXPECT_EQ(read_run_manifest(m_run_dir).iterations[1].step_seconds, steps) << "kept in the manifest";
  const std::string summary = read_text_file(m_run_dir / "iter_v1" / "iteration_summary.md");
  EXPECT_NE(summary.find("- wall time: bench "), std::string::npos) << summary;
  EXPECT_NE(summary.find(", compare "), std::string::npos) << summary;
}

TEST_F(LoopStep, TheBestVersionsAnalysisIsReadBackThroughItsCheckedReader) {
  first();
  const fs::path analysis = m_run_dir / "iter_v0" / "analysis.json";
  json document = read_json_file(analysis);
  document["schema"] = "kopt.analysis/v99";
  write_file_atomic(analysis, document.dump());
  try {
    next(1.03, {"retile_64"});  // negative: v0 stays the best, and the next proposal reads its analysis
    FAIL() << "an analysis of a newer version was read";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("analysis.json"), std::string::npos) << e.headline();
  }
  EXPECT_EQ(read_run_manifest(m_run_dir).iterations.size(), 1u) << "nothing committed";
}

TEST_F(LoopStep, TheComparisonsBudgetComesFromTheLoopsSettings) {
  first();
  double asked_seconds = 0;
  const auto scripted = m_services.compare;
  m_services.compare = [&](const pipeline::comparison_request& request) {
    asked_seconds = request.settings.max_seconds;
    return scripted(request);
  };
  loop_settings s = settings();
  s.comparison.max_seconds = 7.5;
  write_file_atomic(m_kernel, softmax_version(0.9));
  run_loop_step(s, m_services);
  EXPECT_EQ(asked_seconds, 7.5);
}

TEST_F(LoopStep, ALibrarySwappedBehindKoptsBackFailsTheRun) {
  first();
  // A slowed incumbent would make any candidate look faster. The ledger names it first.
  write_file_atomic(m_run_dir / "iter_v0" / "kernel_library.so", "not what bench measured");
  try {
    next(0.9, {"retile_64"});
    FAIL() << "a changed kept library must stop the run";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("changed outside kopt: iter_v0/kernel_library.so differs"), std::string::npos)
        << e.headline();
  }
}

// A run the ledger does not know (another memory) is unverified, and the comparison still checks
// the library it loads against the manifest.
TEST_F(LoopStep, ALibrarySwappedInARunTheLedgerDoesNotKnowFailsItsComparison) {
  first();
  write_file_atomic(m_run_dir / "iter_v0" / "kernel_library.so", "not what bench measured");
  write_file_atomic(m_kernel, softmax_version(0.9));
  loop_settings s = settings();
  s.memory_db = m_work.path() / "another_memory.db";
  try {
    run_loop_step(s, m_services);
    FAIL() << "a changed kept library must stop the run";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("iter_v0/kernel_library.so of v0 is missing or changed"), std::string::npos)
        << e.headline();
  }
}

TEST_F(LoopStep, WithoutTurnsTheBenchSamplesDecideAndTheRecordSaysSo) {
  m_services.compare = nullptr;
  first();
  const step_outcome v1 = next(0.8, {"retile_64"});
  EXPECT_EQ(enum_name(v1.record->outcome), "positive") << v1.record->reason;
  ASSERT_TRUE(v1.record->comparison);
  EXPECT_EQ(v1.record->comparison->method, "separate runs: each version's samples from its own bench");
  EXPECT_FALSE(v1.record->comparison->stop) << "no rounds in turns to tell of";
  EXPECT_EQ(m_gpu.compare_calls, 0);
}

TEST_F(LoopStep, RecoveringFromARegressionIsNotAWin) {
  first();
  const step_outcome v1 = next(1.3, {"retile_64"});
  EXPECT_EQ(enum_name(v1.record->outcome), "negative");
  // Back to v0's speed: faster than v1, but judged against the best it was built from.
  const step_outcome v2 = next(1.0, {"revert_to_128"});
  EXPECT_EQ(v2.record->parent, 0);
  EXPECT_EQ(enum_name(v2.record->outcome), "neutral") << v2.record->reason;
  EXPECT_EQ(v2.manifest.best, 0);
}

TEST_F(LoopStep, ABlockedStrategyIsRejectedWithoutMeasuring) {
  first();
  const step_outcome v1 = next(1.3, {"retile_64"});
  ASSERT_EQ(v1.manifest.blocked, std::vector<std::string>{v1.record->fingerprint});
  const int benches = m_gpu.bench_calls;
  const step_outcome v2 = next(0.7, {"retile_64"});
  EXPECT_EQ(enum_name(v2.record->outcome), "rejected");
  EXPECT_NE(v2.record->reason.find("blocked strategy reused"), std::string::npos);
  EXPECT_EQ(m_gpu.bench_calls, benches);
  const std::string proposal = read_text_file(v2.run_dir / "iter_v2" / "optimization_proposal.md");
  EXPECT_NE(proposal.find(v1.record->fingerprint + "`: retile_64"), std::string::npos) << proposal;
}

TEST_F(LoopStep, AFailingVersionIsRejectedWithTheJudgesReasonAndBlocked) {
  first();
  const step_outcome v1 = next(0.5, {"skip_max_pass"}, "// fails validation");
  EXPECT_EQ(enum_name(v1.record->outcome), "rejected");
  EXPECT_NE(v1.record->reason.find("validation failed (seed 0)"), std::string::npos) << v1.record->reason;
  EXPECT_FALSE(v1.record->eligible);
  EXPECT_EQ(m_gpu.profile_calls, 1) << "a rejected version is not profiled";
  EXPECT_EQ(v1.manifest.best, 0);
}

TEST_F(LoopStep, AVersionThatDeclaresAnotherProblemIsRejectedAndStopsTheRun) {
  first();
  // Half-size buffers: the version would be timed on half the work.
  std::string half = softmax_version(0.5);
  half.replace(half.find("// kopt: input[rows*cols] output[rows*cols]"), 44, "// kopt: input[rows*cols/2] output[rows*cols/2]");
  write_file_atomic(m_kernel, half);
  const step_outcome v1 = run_loop_step(settings(), m_services);
  EXPECT_TRUE(v1.problem_changed);
  EXPECT_EQ(enum_name(v1.record->outcome), "rejected");
  EXPECT_NE(v1.record->reason.find("problem changed"), std::string::npos);
  // Found before any comparison or profile: neither is spent on it.
  EXPECT_EQ(m_gpu.compare_calls, 0);
  EXPECT_EQ(m_gpu.profile_calls, 1);
  EXPECT_FALSE(v1.record->comparison);
  EXPECT_FALSE(fs::exists(m_run_dir / "iter_v1" / "comparison.json"));
}

TEST_F(LoopStep, AChangedReferenceDimensionOrToleranceFailsTheCall) {
  first();
  loop_settings other_dims = settings();
  other_dims.target.dims = {{"rows", "2048"}, {"cols", "1024"}};
  EXPECT_THROW(run_loop_step(other_dims, m_services), error);
  loop_settings other_tolerance = settings();
  other_tolerance.atol = 1.0;
  EXPECT_THROW(run_loop_step(other_tolerance, m_services), error);
  write_file_atomic(m_work.path() / "softmax_ref.py", "def reference(**kw):\n    pass\n");
  try {
    run_loop_step(settings(), m_services);
    FAIL() << "a changed reference was accepted";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("changed since v0"), std::string::npos) << e.headline();
  }
  EXPECT_EQ(read_run_manifest(m_run_dir).iterations.size(), 1u);
}

TEST_F(LoopStep, AManifestEditedOutsideKoptIsRefused) {
  first();
  const fs::path file = m_run_dir / "run_manifest.json";
  std::string text = read_text_file(file);
  text.replace(text.find("\"best\": 0"), 9, "\"best\": 1");
  write_file_atomic(file, text);
  try {
    next(0.8, {"x"});
    FAIL() << "an edited manifest was trusted";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("changed outside kopt"), std::string::npos) << e.headline();
  }
}

TEST_F(LoopStep, ACallKilledMidIterationLeavesTheRunAsItWasAndTheNextCallRedoesIt) {
  first();
  m_gpu.die_in_profile = true;
  EXPECT_THROW(next(0.8, {"vectorized_float4_io"}), std::runtime_error);
  const run_manifest after_kill = read_run_manifest(m_run_dir);
  EXPECT_EQ(after_kill.iterations.size(), 1u);
  EXPECT_TRUE(memory::memory_store::open(settings().memory_db).all().empty());
  m_gpu.die_in_profile = false;
  const step_outcome v1 = run_loop_step(settings(), m_services);
  EXPECT_EQ(v1.record->iteration, 1);
  EXPECT_EQ(enum_name(v1.record->outcome), "positive");
  EXPECT_EQ(memory::memory_store::open(settings().memory_db).all().size(), 1u);
}

TEST_F(LoopStep, OutcomesTheMemoryMissedAreReplayedFromTheManifest) {
  first();
  next(0.8, {"vectorized_float4_io"});
  fs::remove(settings().memory_db);  // as if killed after the manifest was committed
  next(0.8, {"other"});
  const auto all = memory::memory_store::open(settings().memory_db).all();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].iteration, 1);
  EXPECT_EQ(all[1].iteration, 2);
}

// What kopt says when a call cannot open the run it names, or "" when it opened one.
std::string refusal(const loop_settings& s, const loop_services& services) {
  try {
    run_loop_step(s, services);
  } catch (const error& e) {
    return e.headline();
  }
  return "";
}

TEST_F(LoopStep, ARunFolderWithoutARunIsRefusedUnlessNewRunSaysToStartOneThere) {
  // The path as an agent gets it wrong: relative to another folder than the one holding the run.
  loop_settings s = settings();
  s.run_dir = m_work.path() / "optimize_runs" / "softmax";
  EXPECT_EQ(refusal(s, m_services),
            "--run-dir " + s.run_dir.string() +
                " holds no run (no run_manifest.json): give the folder kopt loop printed as \"run folder\", or add "
                "--new-run to start a new run there");
  EXPECT_FALSE(fs::exists(s.run_dir)) << "a refused call writes nothing";
  EXPECT_FALSE(fs::exists(s.memory_db));

  s.new_run = true;
  const step_outcome v0 = run_loop_step(s, m_services);
  EXPECT_EQ(v0.run_dir, s.run_dir);
  EXPECT_EQ(v0.record->iteration, 0);
  EXPECT_EQ(refusal(s, m_services), "--new-run: " + s.run_dir.string() +
                                        " already holds a run (run_manifest.json): leave out --new-run to continue "
                                        "it, or name another folder");
  s.new_run = false;
  write_file_atomic(m_kernel, softmax_version(0.8));
  EXPECT_EQ(run_loop_step(s, m_services).record->iteration, 1) << "the same folder without --new-run continues it";

  loop_settings nowhere = settings();
  nowhere.new_run = true;
  EXPECT_EQ(refusal(nowhere, m_services),
            "--new-run names the folder where the new run starts: give it with --run-dir DIR");
}

TEST_F(LoopStep, PreflightOnlyNeedsNoDimensionsAndTheRunThenStartsInItsFolder) {
  // As the Python toolkit's users do: check the machine into a folder first, then run there.
  loop_settings check = settings();
  check.target.dims.clear();
  check.target.backend = "auto";
  check.preflight_only = true;
  check.run_dir = m_work.path() / "runs" / "softmax";
  const step_outcome checked = run_loop_step(check, m_services);
  EXPECT_EQ(checked.run_dir, check.run_dir);
  EXPECT_TRUE(fs::exists(check.run_dir / "preflight_check.json"));
  EXPECT_TRUE(fs::exists(check.run_dir / "preflight_check.md"));
  EXPECT_FALSE(fs::exists(check.run_dir / "run_manifest.json")) << "no run is started by a check";
  EXPECT_FALSE(fs::exists(check.memory_db));

  loop_settings run = settings();
  run.run_dir = check.run_dir;  // no --new-run: the folder holds only the check
  const step_outcome v0 = run_loop_step(run, m_services);
  EXPECT_EQ(v0.run_dir, check.run_dir);
  EXPECT_EQ(v0.record->iteration, 0);
}

TEST_F(LoopStep, AKernelThatCannotBePlannedLeavesNoRunFolder) {
  loop_settings s = settings();
  s.target.dims.clear();  // the kernel's solve() needs rows and cols
  EXPECT_NE(refusal(s, m_services).find("missing dimensions"), std::string::npos);
  EXPECT_FALSE(fs::exists(m_work.path() / "optimize_runs")) << "a refused call writes nothing";
  s.run_dir = m_work.path() / "named";
  s.new_run = true;
  EXPECT_NE(refusal(s, m_services).find("missing dimensions"), std::string::npos);
  EXPECT_FALSE(fs::exists(s.run_dir));
}

TEST_F(LoopStep, AVersionWithoutTagsIsRememberedButNeverBlocked) {
  first();
  // Two slower versions in a row, neither naming a strategy: the second is measured, not
  // rejected unmeasured as a blocked strategy reused.
  const step_outcome v1 = next(2.0, {});
  EXPECT_EQ(enum_name(v1.record->outcome), "negative");
  EXPECT_EQ(v1.record->tags, (std::vector<std::string>{"unlabeled_strategy"}));
  EXPECT_FALSE(v1.record->fingerprint.empty());
  const step_outcome v2 = next(2.0, {});
  EXPECT_EQ(enum_name(v2.record->outcome), "negative") << v2.record->reason;
  EXPECT_TRUE(v2.manifest.blocked.empty());
}

TEST_F(LoopStep, TheRunKeepsTheBuildSettingsThatFinishRebuildsWith) {
  loop_settings s = settings();
  s.target.defines = {"UNUSED_BLOCK=128"};
  s.target.ptr_size = 8;
  s.target.arch = "sm_90a";
  const step_outcome v0 = run_loop_step(s, m_services);
  const loop_settings again = settings_of_run(v0.run_dir);
  EXPECT_EQ(again.target.defines, s.target.defines);
  EXPECT_EQ(again.target.ptr_size, s.target.ptr_size);
  EXPECT_EQ(again.target.arch, "sm_90a");
  EXPECT_EQ(again.target.backend, "cuda");
}

// The toolkit's loop skill re-runs an iteration after fixing its version: the attempt that
// was there is kept, superseded, in iter_vK_attempt1/; the redo is attempt 2, and the failure
// it replaces no longer blocks its strategy.
TEST_F(LoopStep, ARedoneIterationKeepsTheEarlierAttemptSupersededAndUnblocksItsStrategy) {
  first();
  const step_outcome failed = next(0.5, {"skip_max_pass"}, "// fails validation");
  ASSERT_EQ(enum_name(failed.record->outcome), "rejected");
  ASSERT_EQ(failed.manifest.blocked, std::vector<std::string>{failed.record->fingerprint});
  write_file_atomic(m_kernel, softmax_version(0.8));
  loop_settings redo = settings();
  redo.iteration = 1;
  const step_outcome v1 = run_loop_step(redo, m_services);
  EXPECT_EQ(v1.record->iteration, 1);
  EXPECT_EQ(v1.record->attempt, 2);
  EXPECT_EQ(enum_name(v1.record->outcome), "positive") << v1.record->reason;
  EXPECT_EQ(v1.record->tags, failed.record->tags) << "the strategy of the proposal that led to v1";
  EXPECT_EQ(v1.manifest.best, 1);
  EXPECT_TRUE(v1.manifest.blocked.empty());
  const run_manifest m = read_run_manifest(m_run_dir);
  ASSERT_EQ(m.iterations.size(), 2u);
  ASSERT_EQ(m.superseded.size(), 1u);
  EXPECT_EQ(m.superseded[0].attempt, 1);
  EXPECT_EQ(enum_name(m.superseded[0].outcome), "rejected");
  EXPECT_EQ(m.superseded[0].snapshot, "iter_v1_attempt1/softmax_v1.cu");
  EXPECT_NE(read_text_file(m_run_dir / m.superseded[0].snapshot).find("fails validation"), std::string::npos);
  EXPECT_EQ(read_text_file(m_run_dir / "iter_v1" / "softmax_v1.cu"), softmax_version(0.8));
  EXPECT_NE(read_text_file(m_run_dir / "final_summary.md").find("- v1 attempt 1 (iter_v1_attempt1): rejected: "),
            std::string::npos);
  const auto history = memory::memory_store::open(settings().memory_db).history(v1.record->fingerprint);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_TRUE(history[0].superseded);
  EXPECT_EQ(history[0].outcome, "rejected");
  EXPECT_EQ(history[1].attempt, 2);
  EXPECT_EQ(history[1].outcome, "positive");
  // The kept attempt is part of the run's record: the next call verifies it, and changing it
  // is refused.
  const step_outcome v2 = next(0.7, {"more_warps"});
  EXPECT_EQ(v2.record->iteration, 2);
  EXPECT_EQ(v2.run_check.status, "verified");
  write_file_atomic(m_run_dir / m.superseded[0].snapshot, "forged");
  EXPECT_NE(refusal(settings(), m_services).find("iter_v1_attempt1/softmax_v1.cu"), std::string::npos);
}

TEST_F(LoopStep, OnlyTheLastIterationCanBeRedone) {
  first();
  next(0.9, {"a"});
  next(0.8, {"b"});
  loop_settings s = settings();
  s.iteration = 1;
  EXPECT_EQ(refusal(s, m_services),
            "--iteration 1 is neither the run's next iteration (3) nor its last (v2), the only one that can be redone "
            "(later versions were built on the others): leave --iteration out, or give 3");
  EXPECT_EQ(read_run_manifest(m_run_dir).iterations.size(), 3u);
}

// The toolkit's loop skill writes each version to a file of its own and continues the run with
// it; the snapshot keeps the run's name, the record the file, and the best goes back into the
// run's own kernel file (best_write_back).
TEST_F(LoopStep, ANewFilePerVersionContinuesTheRun) {
  first();
  const fs::path v1_file = m_work.write("softmax_next.cu", softmax_version(0.8));
  loop_settings s = settings();
  s.target.kernel = v1_file;
  s.iteration = 1;
  const step_outcome v1 = run_loop_step(s, m_services);
  EXPECT_EQ(enum_name(v1.record->outcome), "positive") << v1.record->reason;
  EXPECT_EQ(v1.record->kernel_file, fs::absolute(v1_file).string());
  EXPECT_EQ(v1.record->snapshot, "iter_v1/softmax_v1.cu");
  EXPECT_EQ(read_run_manifest(m_run_dir).kernel, fs::absolute(m_kernel).string()) << "the run's file stays v0's";
  s.target.kernel = m_work.write("softmax_next.py", "def run_kernel(**kw):\n    pass\n");
  s.iteration = 2;
  EXPECT_NE(refusal(s, m_services).find("is a triton kernel, but the run's"), std::string::npos);
}

// The toolkit's memory beside the kernel is offered once (by content), never taken unasked;
// given with --global-memory-file, it is imported when the run starts.
TEST_F(LoopStep, TheToolkitsMemoryBesideTheKernelIsOfferedOnceAndImportedWhenGiven) {
  const fs::path toolkit = kopt::testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json";
  fs::copy_file(toolkit, m_work.path() / "global_strategy_memory.json");
  const step_outcome v0 = first();
  ASSERT_EQ(v0.notices.size(), 1u);
  EXPECT_NE(v0.notices[0].find("global_strategy_memory.json is beside the kernel: import it with `kopt memory import"),
            std::string::npos)
      << v0.notices[0];
  EXPECT_TRUE(memory::memory_store::open(settings().memory_db).all().empty()) << "offered, not imported";
  EXPECT_TRUE(next(0.9, {"a"}).notices.empty()) << "a run's later calls say nothing";
  m_run_dir.clear();
  EXPECT_TRUE(first().notices.empty()) << "offered once for this file";

  loop_settings given = settings();
  given.run_dir.clear();
  given.global_memory_file = toolkit;
  const step_outcome imported = run_loop_step(given, m_services);
  ASSERT_EQ(imported.notices.size(), 1u);
  EXPECT_NE(imported.notices[0].find("3 outcomes added"), std::string::npos) << imported.notices[0];
  EXPECT_EQ(memory::memory_store::open(settings().memory_db).history("693f19f37331ba8b").size(), 1u);
}

TEST_F(LoopStep, TheLastIterationEndsTheRun) {
  loop_settings s = settings();
  s.max_iterations = 1;
  const step_outcome v0 = run_loop_step(s, m_services);
  s.run_dir = v0.run_dir;
  write_file_atomic(m_kernel, softmax_version(0.9));
  run_loop_step(s, m_services);
  EXPECT_EQ(refusal(s, m_services),
            "the run has done all its iterations (v0 to v1): raise --max-iterations to go on, or start a new run");
  const std::string summary = read_text_file(v0.run_dir / "final_summary.md");
  EXPECT_NE(summary.find("| 1 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("fast_1.0"), std::string::npos);
  EXPECT_NE(summary.find("kopt bench " + (v0.run_dir / "iter_v1" / "softmax_v1.cu").string()), std::string::npos)
      << summary;

  s.max_iterations = 2;  // as the refusal says
  write_file_atomic(m_kernel, softmax_version(0.8));
  const step_outcome v2 = run_loop_step(s, m_services);
  EXPECT_EQ(v2.record->iteration, 2);
  EXPECT_EQ(read_run_manifest(v0.run_dir).max_iterations, 2);
}

}  // namespace
}  // namespace kopt::loop
