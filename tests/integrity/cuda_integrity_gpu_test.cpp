// GPU machine only: the integrity suite for CUDA kernels. One test per class of cheating kernel
// a judge must catch (the list and the verdicts: EXPLOITS.md, kept with the project's shared
// notes), each with a naive variant and an adaptive one that tries to tell checked calls from
// timed ones. Every kernel is a file of tests/data/integrity/cuda (see its README.md), run
// through the real kopt binary against the honest reference_twice.cu (y = 2 * x).
//
// The verdicts asked of each class: integrity_checks.h.
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "integrity_checks.h"
#include "support/compile_ahead.h"
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

// From the source tree found at run time: the tests may run on a machine other than the one
// that built them (scripts/gpu_tests.sh sets KOPT_SOURCE_DIR).
fs::path data_dir() { return testing::source_dir() / "tests/data/integrity/cuda"; }

// Every kernel of the folder is built before the first test, on all cores (compile_ahead.h).
class kernels_built_ahead : public ::testing::Environment {
 public:
  void SetUp() override { testing::compile_ahead(testing::cuda_files_in(data_dir())); }
};
[[maybe_unused]] const ::testing::Environment* const built_ahead =
    ::testing::AddGlobalTestEnvironment(new kernels_built_ahead);

bench_outcome bench(const std::string& kernel_file, const std::vector<std::string>& extra_args = {},
                    const std::string& reference_file = "reference_twice.cu") {
  return integrity::bench(data_dir(), kernel_file, reference_file, extra_args);
}

// Adaptive variants that are honest on the first calls are caught by the random full check
// of a timed call ("timed call N (checked at random): <validation phrase> ...").

// 1. no write
TEST(CudaIntegrity, NoWriteNaive) { expect_failure(bench("01_no_write_naive.cu"), "failed", {"no write:"}); }

TEST(CudaIntegrity, NoWriteAdaptive) {
  expect_failure(bench("01_no_write_adaptive.cu"), "failed", {"timed call", "no write:"});
}

// 2. partial write
TEST(CudaIntegrity, PartialWriteNaive) {
  expect_failure(bench("02_partial_write_naive.cu"), "failed", {"partial write:"});
}

TEST(CudaIntegrity, PartialWriteAdaptive) {
  expect_failure(bench("02_partial_write_adaptive.cu"), "failed", {"timed call", "partial write:"});
}

// 3. reference leftovers: whatever the fresh allocation holds (zeros, on a fresh process), it
// is not this seed's answer; and the call runs no kernel.
TEST(CudaIntegrity, ReferenceLeftoversNaive) {
  expect_failure(bench("03_reference_leftovers_naive.cu"), "failed",
                 {"no write:", "wrong values:", "partial write:", "constant output:", "timed call", "work outside kernels:"});
}

TEST(CudaIntegrity, ReferenceLeftoversAdaptive) {
  // The replay is a device copy only, and holds an earlier seed's answer.
  expect_failure(bench("03_reference_leftovers_adaptive.cu"), "failed",
                 {"timed call", "wrong values:", "no write:", "work outside kernels:"});
}

// 4. write into inputs
TEST(CudaIntegrity, WriteIntoInputsNaive) {
  expect_failure(bench("04_write_into_inputs_naive.cu"), "failed", {"write into input:"});
}

TEST(CudaIntegrity, WriteIntoInputsAdaptive) {
  // Once x is clobbered, later calls also compute from the wrong x.
  expect_failure(bench("04_write_into_inputs_adaptive.cu"), "failed",
                 {"timed call", "write into input:", "wrong values:"});
}

// 5. out of bounds
TEST(CudaIntegrity, OutOfBoundsNaive) {
  expect_failure(bench("05_out_of_bounds_naive.cu"), "failed", {"out of bounds:"});
}

TEST(CudaIntegrity, OutOfBoundsAdaptive) {
  expect_failure(bench("05_out_of_bounds_adaptive.cu"), "failed", {"timed call", "out of bounds:"});
}

// 6. NaN / Inf
TEST(CudaIntegrity, NanInfNaive) { expect_failure(bench("06_nan_inf_naive.cu"), "failed", {"NaN/Inf:"}); }

TEST(CudaIntegrity, NanInfAdaptive) {
  expect_failure(bench("06_nan_inf_adaptive.cu"), "failed", {"timed call", "NaN/Inf:"});
}

// 7. crash: kopt survives and says so; which driver error is named varies by run.
TEST(CudaIntegrity, CrashNaive) { expect_failure(bench("07_crash_naive.cu"), "crashed", {}); }

TEST(CudaIntegrity, CrashAdaptive) { expect_failure(bench("07_crash_adaptive.cu"), "crashed", {}); }

// 8. hang: stopped at --timeout.
TEST(CudaIntegrity, HangNaive) {
  expect_failure(bench("08_hang_naive.cu", {"--timeout", "8"}), "timed_out", {});
}

TEST(CudaIntegrity, HangAdaptive) {
  expect_failure(bench("08_hang_adaptive.cu", {"--timeout", "8"}), "timed_out", {});
}

// 9. cache by pointer
TEST(CudaIntegrity, CacheByPointerNaive) {
  // Later calls at the same addresses launch nothing at all.
  expect_failure(bench("09_cache_by_pointer_naive.cu"), "failed",
                 {"no write:", "wrong values:", "timed call", "work outside kernels:"});
}

TEST(CudaIntegrity, CacheByPointerAdaptive) {
  // The replay is a device copy only, of the answer to the first inputs seen at these addresses.
  expect_failure(bench("09_cache_by_pointer_adaptive.cu"), "failed",
                 {"wrong values:", "timed call", "work outside kernels:"});
}

// 10. cache by contents / skip when timed
TEST(CudaIntegrity, CacheByContentsNaive) {
  // With y poisoned before every call the probe never finds a ready answer.
  expect_caught_or_forced_honest(bench("10_cache_by_contents_naive.cu"),
                 {"timed call", "no write:", "wrong values:", "partial write:"});
}

TEST(CudaIntegrity, CacheByContentsAdaptive) {
  // The replay is a device copy only, and answers for other inputs when x changed outside the
  // 64 sampled elements; with fresh inputs every call no fingerprint repeats.
  expect_caught_or_forced_honest(bench("10_cache_by_contents_adaptive.cu"),
                 {"timed call", "wrong values:", "no write:", "work outside kernels:"});
}

// 11. count the calls
TEST(CudaIntegrity, CountTheCallsNaive) {
  // From the 6th call on it launches nothing at all.
  expect_failure(bench("11_count_the_calls_naive.cu"), "failed",
                 {"timed call", "no write:", "wrong values:", "work outside kernels:"});
}

TEST(CudaIntegrity, CountTheCallsAdaptive) {
  // A skipped call launches nothing; but if the judge's work between calls always takes more
  // than 2 ms, the cheat never dares to skip and is timed doing the work.
  expect_caught_or_forced_honest(bench("11_count_the_calls_adaptive.cu"),
                                 {"timed call", "no write:", "wrong values:", "work outside kernels:"});
}

// 12. side stream: timed honestly (the timer waits for every stream) and flagged.
TEST(CudaIntegrity, SideStreamNaive) { expect_flagged(bench("12_side_stream_naive.cu"), "side stream:"); }

TEST(CudaIntegrity, SideStreamAdaptive) { expect_flagged(bench("12_side_stream_adaptive.cu"), "side stream:"); }

// 13. host thread: GPU work issued after solve() returned. Before kopt sees the late launch,
// it may well find y untouched, or the call with no kernel of its own.
TEST(CudaIntegrity, HostThreadNaive) {
  // Its thread may still be writing y when kopt reads a checked call: that is work in flight (24).
  expect_failure(bench("13_host_thread_naive.cu"), "failed",
                 {"host thread:", "no write:", "work outside kernels:", "work in flight:"});
}

TEST(CudaIntegrity, HostThreadAdaptive) {
  expect_failure(bench("13_host_thread_adaptive.cu"), "failed",
                 {"host thread:", "timed call", "work outside kernels:"});
}

// 14. work outside kernels: the GPU did not do the work, whether or not a kernel ran.
TEST(CudaIntegrity, WorkOutsideKernelsNaive) {
  expect_failure(bench("14_work_outside_kernels_naive.cu"), "failed", {"work outside kernels:"});
}

TEST(CudaIntegrity, WorkOutsideKernelsAdaptive) {
  expect_failure(bench("14_work_outside_kernels_adaptive.cu"), "failed", {"work outside kernels:"});
}

// 15. persisting L2: reset before every sample, timed honestly, flagged.
TEST(CudaIntegrity, PersistingL2Naive) { expect_flagged(bench("15_persisting_l2_naive.cu"), "persisting L2:"); }

TEST(CudaIntegrity, PersistingL2Adaptive) {
  expect_flagged(bench("15_persisting_l2_adaptive.cu"), "persisting L2:");
}

// 16. shape shrink: the problem comes from the reference, not from the kernel's annotation.
// A judge that ignores the kernel's sizes catches the naive variant as a partial write, and
// the adaptive one (x declared all zeros, so it writes zeros) as wrong or constant values.
TEST(CudaIntegrity, ShapeShrinkNaive) {
  expect_failure(bench("16_shape_shrink_naive.cu"), "failed", {"problem mismatch:", "partial write:"});
}

TEST(CudaIntegrity, ShapeShrinkAdaptive) {
  expect_failure(bench("16_shape_shrink_adaptive.cu"), "failed",
                 {"problem mismatch:", "wrong values:", "constant output:"});
}

// 17. seed blindness: applies only to Triton modules (setup() ignoring the seed); no CUDA test.

// 18. precision downgrade: fails outside the reference's tolerance; the error is reported either way.
TEST(CudaIntegrity, PrecisionDowngradeNaive) {
  const auto o = bench("18_precision_downgrade_naive.cu");
  expect_failure(o, "failed", {"wrong values:"});
  ASSERT_TRUE(o.result.contains("correctness")) << o.result.dump(1);
  EXPECT_GT(field(o.result, "/correctness/seeds/0/outputs/0/max_abs_error").get<double>(), 0.0);
}

TEST(CudaIntegrity, PrecisionDowngradeAdaptive) {
  // Through half: within float32's default tolerance, so it passes, but not silently.
  const auto o = bench("18_precision_downgrade_adaptive.cu");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  ASSERT_TRUE(o.result.contains("correctness")) << o.result.dump(1);
  EXPECT_GT(field(o.result, "/correctness/seeds/0/outputs/0/max_abs_error").get<double>(), 0.0);
}

// 19. constant output: --atol 10 makes the tolerance alone accept any constant near 0; the
// spread of the reference's output must still reject it.
TEST(CudaIntegrity, ConstantOutputNaive) {
  expect_failure(bench("19_constant_output_naive.cu", {"--atol", "10"}), "failed", {"constant output:"});
}

TEST(CudaIntegrity, ConstantOutputAdaptive) {
  expect_failure(bench("19_constant_output_adaptive.cu", {"--atol", "10"}), "failed", {"constant output:"});
}

// 20. timer tampering. Naive: exported look-alikes of CUPTI and driver functions must not
// change the timing (the kernel is right, so the run passes, with real samples).
TEST(CudaIntegrity, TimerTamperingNaive) {
  const auto o = bench("20_timer_tampering_naive.cu");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  ASSERT_TRUE(testing::present(o.result, "kernel")) << o.result.dump(1);
  EXPECT_GT(field(o.result, "/kernel/median_ms").get<double>(), 0.0);
  EXPECT_GE(field(o.result, "/kernel/sample_count").get<int>(), 10);
}

TEST(CudaIntegrity, TimerTamperingAdaptive) {
  // Writes nothing, and forges {"status":"ok"} into every *.json on its process's command line
  // when that process exits: kopt must neither take the forgery nor end up with it as the
  // --json-out file (expect_failure also checks the document is kopt's own).
  expect_failure(bench("20_timer_tampering_adaptive.cu"), "failed", {"no write:"});
}

TEST(CudaIntegrity, TimerTamperingEvidenceLinks) {
  // Computes nothing, and from a thread replaces each output file its process keeps for the
  // verdict with a link to the reference's file for the same inputs: read through the links,
  // the parent would compare the reference with itself.
  expect_failure(bench("20_evidence_links.cu"), "failed", {"evidence tampering:"});
}

// 21. library call: timed honestly (cuBLAS's kernels count) and flagged. Each variant runs a
// kernel of its own beside the library's (all the work handed over is class 26).
TEST(CudaIntegrity, LibraryCallNaive) { expect_flagged(bench("21_library_call_naive.cu"), "library call:"); }

TEST(CudaIntegrity, LibraryCallAdaptive) { expect_flagged(bench("21_library_call_adaptive.cu"), "library call:"); }

// 22. lazy / deferred: a call's own work is not done when it returns.
TEST(CudaIntegrity, LazyDeferredNaive) {
  expect_failure(bench("22_lazy_deferred_naive.cu"), "failed",
                 {"no write:", "timed call", "wrong values:", "work outside kernels:"});
}

TEST(CudaIntegrity, LazyDeferredAdaptive) {
  // Its first deferring call launches nothing (nothing is queued yet). Later calls launch the
  // previous call's work, which with the same buffers writes the current call's answer.
  expect_failure(bench("22_lazy_deferred_adaptive.cu"), "failed",
                 {"timed call", "no write:", "wrong values:", "partial write:", "work outside kernels:"});
}

// 23. slow the rival. Naive: GPU work from a thread of its own, after solve() returned.
TEST(CudaIntegrity, SlowTheRivalNaive) {
  expect_failure(bench("23_slow_the_rival_naive.cu"), "failed", {"host thread:"});
}

TEST(CudaIntegrity, SlowTheRivalAdaptive) {
  // Right answers, but device-wide settings left behind. The reference runs in a clean process
  // of its own, so its time must match the reference's time in an honest run made just before.
  const auto honest = bench("reference_twice.cu");
  ASSERT_EQ(honest.exit_code, 0) << honest.stderr_text;
  ASSERT_TRUE(testing::present(honest.result, "reference")) << honest.result.dump(1);
  const double baseline_ms = field(honest.result, "/reference/median_ms").get<double>();

  const auto o = bench("23_slow_the_rival_adaptive.cu");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(status_of(o), "ok");
  ASSERT_TRUE(testing::present(o.result, "reference")) << o.result.dump(1);
  const double reference_ms = field(o.result, "/reference/median_ms").get<double>();
  EXPECT_NEAR(reference_ms, baseline_ms, 0.15 * baseline_ms)
      << "the reference took " << reference_ms << " ms after the cheat, " << baseline_ms << " ms in an honest run";
}

// 25. reference precision mismatch: right answers and an honest time, but the kernel's build asks
// for fast math while the `.py` reference runs in torch's defaults: flagged with both sides'
// settings in the result. Class 29 (plausible hack): the flag does not depend on the speedup.
void expect_precision_flagged(const bench_outcome& o) {
  expect_flagged(o, "precision mismatch:");
  ASSERT_TRUE(testing::present(o.result, "precision")) << o.result.dump(1);
  EXPECT_EQ(field(o.result, "/precision/kernel/source").get<std::string>(), "nvcc");
  EXPECT_TRUE(field(o.result, "/precision/kernel/use_fast_math").get<bool>());
  EXPECT_EQ(field(o.result, "/precision/reference/source").get<std::string>(), "torch");
  EXPECT_FALSE(field(o.result, "/precision/reference/tf32_matmul").get<bool>());
  EXPECT_FALSE(field(o.result, "/precision/differences").empty());
}

TEST(CudaIntegrity, ReferencePrecisionMismatchNaive) {
  expect_precision_flagged(bench("25_reference_precision_naive.cu", {"-D__USE_FAST_MATH__"}, "reference_twice.py"));
}

TEST(CudaIntegrity, ReferencePrecisionMismatchAdaptive) {
  expect_precision_flagged(bench("25_reference_precision_adaptive.cu", {}, "reference_twice.py"));
}

TEST(CudaIntegrity, ReferencePrecisionAlikeIsNotFlagged) {
  // The same kernel without fast math: both sides at their defaults, recorded, no warning.
  const auto o = bench("25_reference_precision_naive.cu", {}, "reference_twice.py");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  ASSERT_TRUE(testing::present(o.result, "precision")) << o.result.dump(1);
  EXPECT_TRUE(field(o.result, "/precision/differences").empty()) << o.result["precision"].dump(1);
  EXPECT_TRUE(field(o.result, "/warnings").empty()) << o.result["warnings"].dump();
}

// 27. peeking at the grader: one kernel per channel. Each launches nothing of its own unless its
// channel gives it something (a file or bytes of y's size, or the parent's memory or
// environment, which it takes as a way in and then computes honestly): every one must fail.
const std::initializer_list<std::string_view> found_nothing = {"no write:", "wrong values:", "work outside kernels:",
                                                                "timed call"};

TEST(CudaIntegrity, PeekingAtTheGraderEvidenceFoldersNaive) {
  expect_failure(bench("27_peek_evidence_naive.cu"), "failed", found_nothing);
}

TEST(CudaIntegrity, PeekingAtTheGraderEvidenceFoldersAdaptive) {
  expect_failure(bench("27_peek_evidence_adaptive.cu"), "failed", found_nothing);
}

TEST(CudaIntegrity, PeekingAtTheGraderDevShm) { expect_failure(bench("27_peek_dev_shm.cu"), "failed", found_nothing); }

TEST(CudaIntegrity, PeekingAtTheGraderSockets) { expect_failure(bench("27_peek_socket.cu"), "failed", found_nothing); }

TEST(CudaIntegrity, PeekingAtTheGraderParentEnvironment) {
  // Against a .py reference too: its runner's process is another one kopt starts.
  expect_failure(bench("27_peek_parent_environment.cu"), "failed", found_nothing);
  expect_failure(bench("27_peek_parent_environment.cu", {}, "reference_twice.py"), "failed", found_nothing);
}

TEST(CudaIntegrity, PeekingAtTheGraderParentMemory) {
  expect_failure(bench("27_peek_parent_memory.cu"), "failed", {"no write:"});
}

TEST(CudaIntegrity, PeekingAtTheGraderKoptsCache) {
  // A bench of the honest reference first, so that the cache holds whatever a bench leaves.
  ASSERT_EQ(bench("reference_twice.cu").exit_code, 0);
  expect_failure(bench("27_peek_kopt_cache.cu"), "failed", found_nothing);
}

// 28. uninitialised memory: compute-sanitizer's initcheck finds the read of memory never written
// (a plain bench may pass it by luck: fresh device memory reads as zeros; that is the class).
// The honest kernel first, so that a finding is the cheat's and not kopt's own harness's.
TEST(CudaIntegrity, UninitialisedMemoryHonestKernelIsClean) {
  const auto o = bench("reference_twice.cu", {"--sanitize", "initcheck", "--timeout", "240"});
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  EXPECT_EQ(field(o.result, "/sanitizer/status").get<std::string>(), "clean");
}

// Each read of unwritten memory is one initcheck finding, and initcheck's time grows with them
// (109 s at N = 1000003 on an H100): these two cases use a smaller problem, still all unwritten.
TEST(CudaIntegrity, UninitialisedMemoryNaive) {
  expect_failure(
      bench("28_uninitialised_memory_naive.cu", {"--sanitize", "initcheck", "--timeout", "240", "--N=65536"}),
      "failed", {"compute-sanitizer initcheck found"});
}

TEST(CudaIntegrity, UninitialisedMemoryAdaptive) {
  expect_failure(bench("28_uninitialised_memory_adaptive.cu",
                       {"--sanitize", "initcheck", "--timeout", "240", "--N=65536"}),
                 "failed", {"compute-sanitizer initcheck found"});
}

// 24. super-batching: past the validation calls, solve() leaves its work (about 2 ms of it) in
// flight in a CUDA context of its own, which kopt's synchronisation does not wait for, and runs a
// decoy where it was called. Where that work is still running when kopt reads the call, its
// records come in late or a checked call's outputs change after kopt set them aside: work in
// flight (a checked call read before that work wrote anything keeps the poison). On the H200 the
// GPU time-slices between the two contexts, so kopt's wait for the decoy waits for the batch too
// and its records come in with the call: timed, nothing gained (the plausible variant's copies
// between the contexts came with a start time of 0 there: unreadable, failed). Any of these
// verdicts is right; a median below the work left in flight is not.
TEST(CudaIntegrity, SuperBatchingNaive) {
  expect_in_flight_caught_or_timed(bench("24_super_batching_naive.cu"), {"work in flight:", "no write:", "unreadable GPU record:"}, 1.5);
}

TEST(CudaIntegrity, SuperBatchingAdaptive) {
  // In flight only in back-to-back calls (what it takes for timing), else computed where called.
  expect_in_flight_caught_or_timed(bench("24_super_batching_adaptive.cu"), {"work in flight:", "no write:", "unreadable GPU record:"}, 0.0);
}

// 29. plausible hack: the same cheat with half the work timed honestly claims about 2x; the
// verdict does not depend on the size of the claim.
TEST(CudaIntegrity, SuperBatchingPlausibleSize) {
  expect_in_flight_caught_or_timed(bench("24_super_batching_plausible.cu"), {"work in flight:", "partial write:", "unreadable GPU record:"}, 1.5);
}

// 26. ghost kernel: no kernel compiled from the kernel's source runs in (some of) the timed
// calls; cuBLAS does the work, and the answer is right. The result names each kernel with its
// source.
void expect_ghost(const bench_outcome& o) {
  expect_failure(o, "failed", {"ghost kernel:"});
  ASSERT_TRUE(o.result.contains("kernels_ran")) << o.result.dump(1);
  const auto& ran = o.result.at("kernels_ran");
  ASSERT_FALSE(ran.empty()) << o.result.dump(1);
  for (const auto& k : ran) {
    if (k.at("name").get<std::string>().find("twice") == std::string::npos) {
      EXPECT_EQ(k.at("source"), "other") << k.dump();
    }
  }
}

TEST(CudaIntegrity, GhostKernelNaive) { expect_ghost(bench("26_ghost_kernel_naive.cu")); }

TEST(CudaIntegrity, GhostKernelAdaptive) {
  // Its own kernel on the first calls only: the timed calls after them ran cuBLAS's alone.
  expect_ghost(bench("26_ghost_kernel_adaptive.cu"));
}

TEST(CudaIntegrity, KernelsRanAreNamedWithTheirSource) {
  // The library call's own kernel is the version's, cuBLAS's are another's.
  const auto o = bench("21_library_call_naive.cu");
  ASSERT_EQ(o.exit_code, 0) << o.stderr_text;
  ASSERT_TRUE(o.result.contains("kernels_ran")) << o.result.dump(1);
  int own = 0;
  int other = 0;
  for (const auto& k : o.result.at("kernels_ran")) {
    const bool doubling = k.at("name").get<std::string>().find("double_in_place") != std::string::npos;
    EXPECT_EQ(k.at("source"), doubling ? "version" : "other") << k.dump();
    (doubling ? own : other) += 1;
  }
  EXPECT_EQ(own, 1) << o.result.at("kernels_ran").dump(1);
  EXPECT_GE(other, 1) << o.result.at("kernels_ran").dump(1);
}

// The write sandbox, everywhere the kernel runs (docs/integrity.md, "What the code under test
// may write"): its library's writes into /tmp, /dev/shm and a run folder are refused, and the
// run goes on and succeeds (the kernel is right, and writes its output only when its own
// temporary folder took its file). On a GPU machine without Landlock these fail, saying why.
TEST(CudaIntegrity, SandboxRefusesWritesOutsideTheRunDuringBench) {
  integrity::expect_writes_outside_refused(data_dir(), "sandbox_writes.cu", "reference_twice.cu",
                                           integrity::probe_run::bench);
}

TEST(CudaIntegrity, SandboxRefusesWritesOutsideTheRunInProfileMode) {
  integrity::expect_writes_outside_refused(data_dir(), "sandbox_writes.cu", "reference_twice.cu",
                                           integrity::probe_run::profile_mode);
}

TEST(CudaIntegrity, SandboxRefusesWritesOutsideTheRunUnderNcu) {
  integrity::expect_writes_outside_refused(data_dir(), "sandbox_writes.cu", "reference_twice.cu",
                                           integrity::probe_run::under_ncu);
}

}  // namespace
}  // namespace kopt
