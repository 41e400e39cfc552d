// GPU machine only: the integrity suite for Triton modules, class for class as the CUDA one
// (cuda_integrity_gpu_test.cpp): one test per class of EXPLOITS.md that applies to a Triton
// module, naive and adaptive. Every module is a file of tests/data/integrity/triton (see its
// README.md), run through the real kopt binary against reference_twice.py, whose setup() is
// the problem (y = 2 * x). The verdicts asked of each class: integrity_checks.h.
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "integrity_checks.h"
#include "support/kopt_process.h"
#include "support/result_fields.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;
using integrity::bench_outcome;
using integrity::expect_caught_or_forced_honest;
using integrity::expect_failure;
using integrity::expect_flagged;
using integrity::expect_in_flight_caught_or_timed;
using integrity::field;
using integrity::status_of;

fs::path data_dir() { return testing::source_dir() / "tests/data/integrity/triton"; }

bench_outcome bench(const std::string& module, const std::vector<std::string>& extra_args = {},
                    const std::string& reference = "reference_twice.py") {
  return integrity::bench(data_dir(), module, reference, extra_args);
}

// `pointer`'s value (a median) in a run of the honest module made now: what a flagged or
// rival-slowing case is compared with.
double honest_figure(const std::string& pointer) {
  const auto honest = bench("honest.py");
  EXPECT_EQ(honest.exit_code, 0) << honest.stderr_text;
  const std::string object = pointer.substr(1, pointer.find('/', 1) - 1);  // "kernel", "reference"
  if (!testing::present(honest.result, object.c_str())) return 0;
  return field(honest.result, pointer).get<double>();
}

// The honest module passes, with every timed call on fresh inputs and some checked.
TEST(TritonIntegrity, TheHonestModulePassesWithItsTimedCallsChecked) {
  const auto o = bench("honest.py");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  EXPECT_EQ(field(o.result, "/problem_source").get<std::string>(), "reference");
  EXPECT_GE(field(o.result, "/timed_call_checks/checked").get<int>(), 10);
  EXPECT_GE(field(o.result, "/kernel/sample_count").get<int>(), 10);
  EXPECT_TRUE(field(o.result, "/warnings").empty()) << o.result["warnings"].dump();
}

// 1. no write
TEST(TritonIntegrity, NoWriteNaive) { expect_failure(bench("01_no_write_naive.py"), "failed", {"no write:"}); }

TEST(TritonIntegrity, NoWriteAdaptive) {
  expect_failure(bench("01_no_write_adaptive.py"), "failed", {"timed call", "no write:", "work outside kernels:"});
}

// 2. partial write
TEST(TritonIntegrity, PartialWriteNaive) {
  expect_failure(bench("02_partial_write_naive.py"), "failed", {"partial write:"});
}

TEST(TritonIntegrity, PartialWriteAdaptive) {
  expect_failure(bench("02_partial_write_adaptive.py"), "failed", {"timed call", "partial write:"});
}

// 3. reference leftovers: the reference runs in another process; a copy of some memory is no
// answer, and the call runs no kernel.
TEST(TritonIntegrity, ReferenceLeftoversNaive) {
  expect_failure(bench("03_reference_leftovers_naive.py"), "failed",
                 {"no write:", "wrong values:", "partial write:", "constant output:", "NaN/Inf:", "timed call",
                  "work outside kernels:"});
}

TEST(TritonIntegrity, ReferenceLeftoversAdaptive) {
  expect_failure(bench("03_reference_leftovers_adaptive.py"), "failed",
                 {"timed call", "wrong values:", "work outside kernels:"});
}

// 4. write into inputs
TEST(TritonIntegrity, WriteIntoInputsNaive) {
  expect_failure(bench("04_write_into_inputs_naive.py"), "failed", {"write into input:"});
}

TEST(TritonIntegrity, WriteIntoInputsAdaptive) {
  expect_failure(bench("04_write_into_inputs_adaptive.py"), "failed", {"timed call", "write into input:"});
}

// 5. out of bounds
TEST(TritonIntegrity, OutOfBoundsNaive) {
  expect_failure(bench("05_out_of_bounds_naive.py"), "failed", {"out of bounds:"});
}

TEST(TritonIntegrity, OutOfBoundsAdaptive) {
  expect_failure(bench("05_out_of_bounds_adaptive.py"), "failed", {"timed call", "out of bounds:"});
}

// 6. NaN / Inf
TEST(TritonIntegrity, NanInfNaive) { expect_failure(bench("06_nan_inf_naive.py"), "failed", {"NaN/Inf:"}); }

TEST(TritonIntegrity, NanInfAdaptive) {
  expect_failure(bench("06_nan_inf_adaptive.py"), "failed", {"timed call", "NaN/Inf:"});
}

// 7. crash: kopt survives and says so.
TEST(TritonIntegrity, CrashNaive) { expect_failure(bench("07_crash_naive.py"), "crashed", {}); }

TEST(TritonIntegrity, CrashAdaptive) { expect_failure(bench("07_crash_adaptive.py"), "crashed", {}); }

// 8. hang: stopped at --timeout.
TEST(TritonIntegrity, HangNaive) { expect_failure(bench("08_hang_naive.py", {"--timeout", "20"}), "timed_out", {}); }

TEST(TritonIntegrity, HangAdaptive) {
  expect_failure(bench("08_hang_adaptive.py", {"--timeout", "20"}), "timed_out", {});
}

// 9. cache by pointer: kopt's buffers stay at their addresses; their inputs do not.
TEST(TritonIntegrity, CacheByPointerNaive) {
  expect_failure(bench("09_cache_by_pointer_naive.py"), "failed",
                 {"no write:", "wrong values:", "timed call", "work outside kernels:"});
}

TEST(TritonIntegrity, CacheByPointerAdaptive) {
  expect_failure(bench("09_cache_by_pointer_adaptive.py"), "failed",
                 {"wrong values:", "timed call", "work outside kernels:"});
}

// 10. cache by contents / skip when timed: never finds a ready answer or a known input.
TEST(TritonIntegrity, CacheByContentsNaive) {
  expect_caught_or_forced_honest(bench("10_cache_by_contents_naive.py"),
                                 {"timed call", "no write:", "wrong values:", "partial write:"});
}

TEST(TritonIntegrity, CacheByContentsAdaptive) {
  expect_caught_or_forced_honest(bench("10_cache_by_contents_adaptive.py"),
                                 {"timed call", "wrong values:", "no write:", "work outside kernels:"});
}

// 11. count the calls
TEST(TritonIntegrity, CountTheCallsNaive) {
  expect_failure(bench("11_count_the_calls_naive.py"), "failed",
                 {"timed call", "no write:", "wrong values:", "work outside kernels:"});
}

TEST(TritonIntegrity, CountTheCallsAdaptive) {
  expect_caught_or_forced_honest(bench("11_count_the_calls_adaptive.py"),
                                 {"timed call", "no write:", "wrong values:", "work outside kernels:"});
}

// 12. side stream: timed honestly and flagged.
TEST(TritonIntegrity, SideStreamNaive) { expect_flagged(bench("12_side_stream_naive.py"), "side stream:"); }

TEST(TritonIntegrity, SideStreamAdaptive) { expect_flagged(bench("12_side_stream_adaptive.py"), "side stream:"); }

// 13. host thread: GPU work issued after the call returned.
TEST(TritonIntegrity, HostThreadNaive) {
  // The thread's first launch compiles (Triton runs a C compiler): processes left running.
  expect_failure(bench("13_host_thread_naive.py"), "failed",
                 {"host thread:", "no write:", "work outside kernels:", "detached process:"});
}

TEST(TritonIntegrity, HostThreadAdaptive) {
  expect_failure(bench("13_host_thread_adaptive.py"), "failed", {"host thread:", "timed call", "work outside kernels:"});
}

// 14. work outside kernels
TEST(TritonIntegrity, WorkOutsideKernelsNaive) {
  expect_failure(bench("14_work_outside_kernels_naive.py"), "failed", {"work outside kernels:"});
}

TEST(TritonIntegrity, WorkOutsideKernelsAdaptive) {
  expect_failure(bench("14_work_outside_kernels_adaptive.py"), "failed", {"work outside kernels:"});
}

// 15. persisting L2: reset after every call, timed honestly, flagged.
TEST(TritonIntegrity, PersistingL2Naive) { expect_flagged(bench("15_persisting_l2_naive.py"), "persisting L2:"); }

TEST(TritonIntegrity, PersistingL2Adaptive) {
  expect_flagged(bench("15_persisting_l2_adaptive.py"), "persisting L2:");
}

// 16. shape shrink: the module's own setup() is checked against the reference's.
TEST(TritonIntegrity, ShapeShrinkNaive) {
  expect_failure(bench("16_shape_shrink_naive.py"), "failed", {"problem mismatch: the kernel's setup() makes x"});
}

TEST(TritonIntegrity, ShapeShrinkAdaptive) {
  expect_failure(bench("16_shape_shrink_adaptive.py"), "failed", {"problem mismatch: the kernel's setup() gives N"});
}

// 17. seed blindness: the module's setup() is the problem (its reference has none).
TEST(TritonIntegrity, SeedBlindnessNaive) {
  expect_failure(bench("17_seed_blindness_naive.py", {}, "reference_twice_without_setup.py"), "failed",
                 {"seed blindness:"});
}

TEST(TritonIntegrity, SeedBlindnessAdaptive) {
  // The seed reaches one element only; the timed calls' fresh inputs, drawn like setup()'s
  // values, put the other values everywhere.
  expect_failure(bench("17_seed_blindness_adaptive.py", {}, "reference_twice_without_setup.py"), "failed",
                 {"timed call", "wrong values:", "seed blindness:"});
}

// 18. precision downgrade: fails outside the reference's tolerance; the error is reported either way.
TEST(TritonIntegrity, PrecisionDowngradeNaive) {
  const auto o = bench("18_precision_downgrade_naive.py");
  expect_failure(o, "failed", {"wrong values:"});
  ASSERT_TRUE(o.result.contains("correctness")) << o.result.dump(1);
  EXPECT_GT(field(o.result, "/correctness/seeds/0/outputs/0/max_abs_error").get<double>(), 0.0);
}

TEST(TritonIntegrity, PrecisionDowngradeAdaptive) {
  const auto o = bench("18_precision_downgrade_adaptive.py");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  EXPECT_GT(field(o.result, "/correctness/seeds/0/outputs/0/max_abs_error").get<double>(), 0.0);
}

// 19. constant output: a loose tolerance does not let a constant through.
TEST(TritonIntegrity, ConstantOutputNaive) {
  expect_failure(bench("19_constant_output_naive.py", {"--atol", "10"}), "failed", {"constant output:"});
}

TEST(TritonIntegrity, ConstantOutputAdaptive) {
  expect_failure(bench("19_constant_output_adaptive.py", {"--atol", "10"}), "failed", {"constant output:"});
}

// 20. timer tampering. Naive: Python-level patches of the runner change nothing (the result
// is written by kopt's harness library), so the right module passes with real samples.
TEST(TritonIntegrity, TimerTamperingNaive) {
  const double honest_ms = honest_figure("/kernel/median_ms");
  ASSERT_GT(honest_ms, 0);
  const auto o = bench("20_timer_tampering_naive.py");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  ASSERT_TRUE(testing::present(o.result, "kernel")) << o.result.dump(1);
  EXPECT_GE(field(o.result, "/kernel/sample_count").get<int>(), 10);
  EXPECT_GE(field(o.result, "/kernel/median_ms").get<double>(), 0.8 * honest_ms) << "the honest module took " << honest_ms << " ms";
}

TEST(TritonIntegrity, TimerTamperingAdaptive) {
  // A process of its own session rewrites the result file once the measuring process is gone.
  expect_failure(bench("20_timer_tampering_adaptive.py"), "failed", {"detached process:", "no write:"});
}

// 21. library call: timed honestly (cuBLAS's kernels count) and flagged. torch has loaded cuBLAS
// before the module is, so it is the kernels the calls ran that Triton did not compile.
TEST(TritonIntegrity, LibraryCallNaive) { expect_flagged(bench("21_library_call_naive.py"), "library call:"); }

TEST(TritonIntegrity, LibraryCallAdaptive) { expect_flagged(bench("21_library_call_adaptive.py"), "library call:"); }

// 26. ghost kernel: no kernel Triton compiled for the module runs in (some of) the timed calls;
// cuBLAS does the work through torch, and the answer is right.
TEST(TritonIntegrity, GhostKernelNaive) {
  const auto o = bench("26_ghost_kernel_naive.py");
  expect_failure(o, "failed", {"ghost kernel:"});
  ASSERT_TRUE(o.result.contains("kernels_ran")) << o.result.dump(1);
  for (const auto& k : o.result.at("kernels_ran")) EXPECT_EQ(k.at("source"), "other") << k.dump();
}

TEST(TritonIntegrity, GhostKernelAdaptive) {
  // Triton's kernel for the validation calls only.
  expect_failure(bench("26_ghost_kernel_adaptive.py"), "failed", {"ghost kernel:"});
}

// 22. lazy / deferred: a call's own work is not done when it returns.
TEST(TritonIntegrity, LazyDeferredNaive) {
  expect_failure(bench("22_lazy_deferred_naive.py"), "failed",
                 {"no write:", "timed call", "wrong values:", "work outside kernels:"});
}

TEST(TritonIntegrity, LazyDeferredAdaptive) {
  expect_failure(bench("22_lazy_deferred_adaptive.py"), "failed",
                 {"timed call", "no write:", "wrong values:", "partial write:", "work outside kernels:"});
}

// 23. slow the rival: the reference runs in a clean process of its own, so its time after the
// cheat matches its time in an honest run made just before.
void expect_reference_unharmed(const std::string& module) {
  const double baseline_ms = honest_figure("/reference/median_ms");
  ASSERT_GT(baseline_ms, 0);
  const auto o = bench(module);
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  ASSERT_TRUE(testing::present(o.result, "reference")) << o.result.dump(1);
  const double reference_ms = field(o.result, "/reference/median_ms").get<double>();
  EXPECT_NEAR(reference_ms, baseline_ms, 0.15 * baseline_ms)
      << "the reference took " << reference_ms << " ms after the cheat, " << baseline_ms << " ms in an honest run";
}

TEST(TritonIntegrity, SlowTheRivalNaive) { expect_reference_unharmed("23_slow_the_rival_naive.py"); }

TEST(TritonIntegrity, SlowTheRivalAdaptive) { expect_reference_unharmed("23_slow_the_rival_adaptive.py"); }

// 25. reference precision mismatch: right answers, TF32 matmuls on in the module's process (at
// import; adaptive: only inside the calls it takes for timed ones) while the reference runs in
// torch's defaults: flagged, with both sides' settings. Class 29: whatever the speedup.
void expect_precision_flagged(const bench_outcome& o) {
  expect_flagged(o, "precision mismatch:");
  ASSERT_TRUE(testing::present(o.result, "precision")) << o.result.dump(1);
  EXPECT_TRUE(field(o.result, "/precision/kernel/tf32_matmul").get<bool>());
  EXPECT_FALSE(field(o.result, "/precision/reference/tf32_matmul").get<bool>());
  EXPECT_TRUE(field(o.result, "/python_runner/torch/tf32_matmul").get<bool>());
}

TEST(TritonIntegrity, ReferencePrecisionMismatchNaive) {
  expect_precision_flagged(bench("25_reference_precision_naive.py"));
}

TEST(TritonIntegrity, ReferencePrecisionMismatchAdaptive) {
  const auto o = bench("25_reference_precision_adaptive.py");
  expect_precision_flagged(o);
  EXPECT_EQ(field(o.result, "/precision/kernel/float32_matmul_precision").get<std::string>(), "medium");
  EXPECT_TRUE(field(o.result, "/python_runner/torch/precision_changed").get<bool>());
}

TEST(TritonIntegrity, ReferencePrecisionAlikeIsRecordedWithoutWarning) {
  const auto o = bench("honest.py");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  ASSERT_TRUE(testing::present(o.result, "precision")) << o.result.dump(1);
  EXPECT_TRUE(field(o.result, "/precision/differences").empty()) << o.result["precision"].dump(1);
}

// 27. peeking at the grader, where a module's channels differ from a CUDA kernel's: the parent's
// memory and environment read from Python (a way in makes it compute honestly, so the run must
// fail), and Python's own stack and heap searched for a tensor holding the answer.
TEST(TritonIntegrity, PeekingAtTheGraderParentMemory) {
  expect_failure(bench("27_peek_parent_memory.py"), "failed", {"no write:", "work outside kernels:"});
}

TEST(TritonIntegrity, PeekingAtTheGraderPythonGlobals) {
  expect_failure(bench("27_peek_python_globals.py"), "failed",
                 {"no write:", "wrong values:", "work outside kernels:", "timed call"});
}

// 24. super-batching: past the validation calls, the work (about 2 ms of it) is left running on
// a stream of the module's own when the call returns. It is in kopt's process and context, so a
// judge sees it: a checked call's outputs are read only after it ended (a call whose work came
// in a later launch keeps the poison), and a timed call must cover it and be flagged.
const std::initializer_list<std::string_view> in_flight_flags = {"side stream:", "work in flight:"};

TEST(TritonIntegrity, SuperBatchingNaive) {
  expect_in_flight_caught_or_timed(bench("24_super_batching_naive.py"), {"work in flight:", "no write:", "timed call"},
                                   1.5, in_flight_flags);
}

TEST(TritonIntegrity, SuperBatchingAdaptive) {
  // Batches two back-to-back calls' work into one launch; computes where called otherwise.
  expect_in_flight_caught_or_timed(bench("24_super_batching_adaptive.py"),
                                   {"work in flight:", "no write:", "timed call", "work outside kernels:"}, 0.0);
}

// 29. plausible hack: half the work timed where called, half left in flight: about 2x claimed.
TEST(TritonIntegrity, SuperBatchingPlausibleSize) {
  expect_in_flight_caught_or_timed(bench("24_super_batching_plausible.py"),
                                   {"work in flight:", "partial write:", "timed call"}, 1.5, in_flight_flags);
}

// 28. uninitialised memory: initcheck finds the read of memory never written (a plain bench may
// pass it by luck). The honest module first: a finding must be the cheat's.
TEST(TritonIntegrity, UninitialisedMemoryHonestModuleIsClean) {
  const auto o = bench("honest.py", {"--sanitize", "initcheck", "--timeout", "240"});
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(field(o.result, "/sanitizer/status").get<std::string>(), "clean");
}

// Each read of unwritten memory is one initcheck finding, and initcheck's time grows with them:
// at the default N = 1000003 each of these two cases took about two minutes of the suite.
TEST(TritonIntegrity, UninitialisedMemoryNaive) {
  expect_failure(
      bench("28_uninitialised_memory_naive.py", {"--sanitize", "initcheck", "--timeout", "240", "--N=65536"}),
      "failed", {"compute-sanitizer initcheck found"});
}

TEST(TritonIntegrity, UninitialisedMemoryAdaptive) {
  expect_failure(
      bench("28_uninitialised_memory_adaptive.py", {"--sanitize", "initcheck", "--timeout", "240", "--N=65536"}),
      "failed", {"compute-sanitizer initcheck found"});
}

// The write sandbox, everywhere the module runs (docs/integrity.md, "What the code under test
// may write"): its writes into /tmp, /dev/shm and a run folder are refused, and the run goes on
// and succeeds (the module is right, and writes its output only when its own temporary folder
// took its file; Triton compiles there too). On a GPU machine without Landlock these fail.
TEST(TritonIntegrity, SandboxRefusesWritesOutsideTheRunDuringBench) {
  integrity::expect_writes_outside_refused(data_dir(), "sandbox_writes.py", "reference_twice.py",
                                           integrity::probe_run::bench);
}

TEST(TritonIntegrity, SandboxRefusesWritesOutsideTheRunInProfileMode) {
  integrity::expect_writes_outside_refused(data_dir(), "sandbox_writes.py", "reference_twice.py",
                                           integrity::probe_run::profile_mode);
}

TEST(TritonIntegrity, SandboxRefusesWritesOutsideTheRunUnderNcu) {
  integrity::expect_writes_outside_refused(data_dir(), "sandbox_writes.py", "reference_twice.py",
                                           integrity::probe_run::under_ncu);
}

}  // namespace
}  // namespace kopt
