// The judge's pure rules, no GPU: whose work a record is, what a sample's verdict is, which
// compute libraries a process map names, and whose problem a run is judged on.
#include <map>

#include <gtest/gtest.h>

#include "harness/integrity_flags.h"
#include "harness/launch_hold.h"
#include "harness/loaded_libraries.h"
#include "harness/physical_floor.h"
#include "harness/problem_source.h"
#include "harness/sampling.h"
#include "harness/work_attribution.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {
namespace {

using cuda::api_origin;
using cuda::gpu_activity;

gpu_activity record(gpu_activity::kind what, std::uint64_t start, std::uint64_t end, std::uint32_t correlation,
                    std::uint32_t stream = 7, std::uint64_t bytes = 0, bool crosses_host = false) {
  return gpu_activity{what, what == gpu_activity::kind::kernel ? "k" : "", start, end, stream, correlation, bytes,
                      crosses_host};
}

TEST(WorkAttribution, OwnerFollowsTheIssuingCallsWindowAndThread) {
  EXPECT_EQ(owner_of(api_origin{3, true, "cudaLaunchKernel"}, 3), work_owner::this_call);
  EXPECT_EQ(owner_of(api_origin{3, false, "cudaLaunchKernel"}, 3), work_owner::this_call);  // a thread inside solve()
  EXPECT_EQ(owner_of(api_origin{2, true, "cudaLaunchKernel"}, 3), work_owner::earlier_call);
  EXPECT_EQ(owner_of(api_origin{0, true, "cuLaunchKernel"}, 3), work_owner::harness);
  EXPECT_EQ(owner_of(api_origin{0, false, "cudaLaunchKernel"}, 3), work_owner::foreign);
  EXPECT_EQ(owner_of(api_origin{0, false, "cudaLaunchKernel"}, 0), work_owner::foreign);
  EXPECT_EQ(owner_of(std::nullopt, 3), work_owner::unattributed);
}

TEST(WorkAttribution, TheCallsWorkIsItsSpanWithTheSumsBeside) {
  // Call 5: two kernels on two streams and a copy; kopt's flush (harness) and a foreign kernel
  // from a detached thread in the same batch.
  const std::map<std::uint32_t, api_origin> origins = {{10, {5, true, "cudaLaunchKernel"}},
                                                       {11, {5, true, "cudaLaunchKernel"}},
                                                       {12, {5, true, "cudaMemcpyAsync"}},
                                                       {20, {0, true, "cuLaunchKernel"}},
                                                       {30, {0, false, "cudaLaunchKernel"}}};
  const origin_lookup lookup = [&](std::uint32_t c) -> std::optional<api_origin> {
    const auto found = origins.find(c);
    return found == origins.end() ? std::nullopt : std::optional<api_origin>(found->second);
  };
  const std::vector<gpu_activity> records = {
      record(gpu_activity::kind::kernel, 0, 50, 20),                       // flush
      record(gpu_activity::kind::kernel, 100, 140, 10, 7),
      record(gpu_activity::kind::kernel, 150, 200, 11, 8),
      record(gpu_activity::kind::memcpy, 210, 230, 12, 7, 4096, true),
      record(gpu_activity::kind::kernel, 300, 310, 30),                    // foreign
      record(gpu_activity::kind::memset, 400, 410, 99)};                   // never seen: counted
  const call_work w = attribute(records, 5, lookup);
  EXPECT_DOUBLE_EQ(w.span_ns, 310);
  EXPECT_DOUBLE_EQ(w.kernel_ns, 90);
  EXPECT_DOUBLE_EQ(w.memory_ops_ns, 30);
  EXPECT_EQ(w.kernels, 2);
  EXPECT_EQ(w.memory_ops, 2);
  EXPECT_EQ(w.streams, 2);
  EXPECT_EQ(w.stream_ids, (std::vector<std::uint32_t>{7, 8}));
  EXPECT_EQ(w.harness_stream, 7u);  // the flush's: the default stream
  EXPECT_EQ(w.host_copy_bytes, 4096u);
  EXPECT_EQ(w.unattributed, 1);
  EXPECT_EQ(w.foreign, "a kernel k issued by cudaLaunchKernel from another thread while no solve() call was running");
  // Between calls, work nobody reported is ignored.
  EXPECT_EQ(attribute(records, 0, lookup).span_ns, 0);
}

call_sample sample_with(int kernels, std::uint64_t host_copy_bytes, std::string foreign = "") {
  call_sample s;
  s.kernels = kernels;
  s.memory_ops = 2;
  s.host_copy_bytes = host_copy_bytes;
  s.foreign = std::move(foreign);
  return s;
}

TEST(JudgeSample, HonestWorkPasses) { EXPECT_EQ(judge_sample(sample_with(1, 64), 4, 4096), ""); }

TEST(JudgeSample, ForeignWorkIsAHostThread) {
  EXPECT_EQ(judge_sample(sample_with(1, 0, "a kernel k issued by X"), 9, 4096),
            "host thread: a kernel k issued by X (around call 9); solve() must launch its work before it returns");
}

TEST(JudgeSample, NoKernelIsWorkOutsideKernels) {
  EXPECT_EQ(judge_sample(sample_with(0, 8192), 2, 4096),
            "work outside kernels: call 2 ran no kernel on the GPU (2 copies/memsets, 8.00 KiB between host and "
            "device); the work was done on the host or with copies");
}

TEST(JudgeSample, OutputsCopiedFromTheHostAreWorkOutsideKernels) {
  // An empty kernel beside host computation: half the outputs' bytes crossed the bus.
  EXPECT_NE(judge_sample(sample_with(1, 2048), 3, 4096).find("work outside kernels: call 3 copied 2.00 KiB"),
            std::string::npos);
  EXPECT_EQ(judge_sample(sample_with(1, 2047), 3, 4096), "");
}

TEST(WorkAttribution, AnEarlierCallsWorkFoundLaterWasLeftInFlight) {
  // Recorded as CUPTI reports it: call 4 launched a decoy (finished before kopt's
  // synchronisation) and, in a context kopt does not wait for, a kernel and a copy into its
  // output that finished only after call 4's records were read; they come with call 5's batch.
  const std::map<std::uint32_t, api_origin> origins = {{40, {4, true, "cudaLaunchKernel"}},
                                                       {41, {4, true, "cudaLaunchKernel"}},
                                                       {42, {4, true, "cudaMemcpyAsync"}},
                                                       {50, {5, true, "cudaLaunchKernel"}},
                                                       {60, {0, true, "cuLaunchKernel"}}};
  const origin_lookup lookup = [&](std::uint32_t c) -> std::optional<api_origin> { return origins.at(c); };
  const std::vector<gpu_activity> call_4 = {{gpu_activity::kind::kernel, "decoy", 100, 102, 7, 40, 0, false}};
  EXPECT_EQ(attribute(call_4, 4, lookup).late, "");
  const std::vector<gpu_activity> between = {{gpu_activity::kind::kernel, "kopt_l2_flush", 110, 160, 7, 60, 0, false},
                                             {gpu_activity::kind::kernel, "twice", 103, 190, 21, 41, 0, false},
                                             {gpu_activity::kind::memcpy, "", 191, 195, 21, 42, 4000, false}};
  EXPECT_EQ(attribute(between, 0, lookup).late, "a kernel twice of call 4");
  const std::vector<gpu_activity> call_5 = {{gpu_activity::kind::memcpy, "", 191, 195, 21, 42, 4000, false},
                                            {gpu_activity::kind::kernel, "decoy", 200, 202, 7, 50, 0, false}};
  const call_work w = attribute(call_5, 5, lookup);
  EXPECT_EQ(w.late, "a copy of call 4");
  EXPECT_EQ(w.kernels, 1);  // call 4's copy is not counted as call 5's
}

TEST(WorkAttribution, ARecordWithoutValidTimesIsNamedAndLeftOutOfTheSpan) {
  // As CUPTI gave it on an H200: a copy from a context of the kernel's own with a start of 0;
  // counted, the call's span would have been the time since 1970.
  const std::map<std::uint32_t, api_origin> origins = {{50, {5, true, "cudaLaunchKernel"}},
                                                       {51, {5, true, "cudaMemcpyAsync"}},
                                                       {52, {5, true, "cudaMemcpyAsync"}}};
  const origin_lookup lookup = [&](std::uint32_t c) -> std::optional<api_origin> { return origins.at(c); };
  const std::uint64_t now = 1'796'417'737'434'000'000ULL;
  const std::vector<gpu_activity> call_5 = {{gpu_activity::kind::kernel, "twice", now, now + 10, 7, 50, 0, false},
                                            {gpu_activity::kind::memcpy, "", 0, now + 20, 21, 51, 4000, false},
                                            {gpu_activity::kind::memcpy, "", now + 30, now + 25, 21, 52, 4000, false}};
  const call_work w = attribute(call_5, 5, lookup);
  EXPECT_EQ(w.unreadable, "a copy of call 5");
  EXPECT_EQ(w.span_ns, 10);
  EXPECT_EQ(w.memory_ops, 0);
  // Valid records only: nothing unreadable.
  EXPECT_EQ(attribute({call_5.front()}, 5, lookup).unreadable, "");
}

TEST(JudgeSample, WorkOfAnEarlierCallFoundLaterIsWorkInFlight) {
  call_sample s = sample_with(1, 0);
  s.late = "a kernel twice of call 4";
  EXPECT_EQ(judge_sample(s, 5, 4096),
            "work in flight: a kernel twice of call 4 was still running after solve() returned and kopt had "
            "synchronised and read that call's work (found around call 5); its time escaped the timer. solve() must "
            "leave no work running when it returns");
}

TEST(JudgeSample, AnotherContextLeftCurrentIsWorkInFlight) {
  call_sample s = sample_with(1, 0);
  s.left_other_context = true;
  EXPECT_EQ(judge_sample(s, 7, 4096).rfind("work in flight: call 7 returned with another CUDA context current", 0), 0u)
      << judge_sample(s, 7, 4096);
  // A host thread's work is named first: it is the cause, not a consequence.
  s.foreign = "a kernel k issued by X";
  EXPECT_EQ(judge_sample(s, 7, 4096).rfind("host thread:", 0), 0u);
}

TEST(LoadedLibraries, ComputeLibrariesAreNamedOnce) {
  const std::string maps =
      "7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
      "7f02-7f03 r-xp 0 08:01 2 /usr/local/cuda/lib64/libcublas.so.13.0.0\n"
      "7f04-7f05 r--p 0 08:01 2 /usr/local/cuda/lib64/libcublas.so.13.0.0\n"
      "7f06-7f07 r-xp 0 08:01 3 /usr/local/cuda/lib64/libcublasLt.so.13\n"
      "7f08-7f09 r-xp 0 08:01 4 /usr/lib/libcuda.so.1\n"
      "7f0a-7f0b rw-p 0 00:00 0 [heap]\n";
  EXPECT_EQ(compute_libraries_in(maps), (std::vector<std::string>{"libcublas.so.13.0.0", "libcublasLt.so.13"}));
  EXPECT_TRUE(compute_libraries_in("").empty());
}

kernel::kernel_plan plan_of(const std::string& source, std::int64_t n = 1000) {
  return kernel::plan_kernel("k.cu", source, std::nullopt, {{"N", std::to_string(n)}}, std::nullopt, {});
}

constexpr const char* solve_text = "extern \"C\" void solve(const float* x, float* y, int N) {}\n";

TEST(IntegrityFlags, KernelsATritonModuleRanThatTritonDidNotCompileAreALibrarysWork) {
  child_report result;
  result.kernel = measure::timing_document{};
  result.kernel->kernel_names = {"twice_kernel", "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x64x32"};
  add_library_kernels_flag(result, {"twice_kernel"});
  ASSERT_EQ(result.warnings.size(), 1u);
  const std::string& warning = result.warnings[0];
  EXPECT_EQ(warning.rfind("library call: run_kernel() ran 1 kernel(s) Triton did not compile (sm90_xmma_gemm", 0), 0u)
      << warning;
  EXPECT_EQ(result.library_kernels.size(), 1u);
  child_report honest;
  honest.kernel = measure::timing_document{};
  honest.kernel->kernel_names = {"twice_kernel"};
  add_library_kernels_flag(honest, {"twice_kernel"});
  EXPECT_TRUE(honest.warnings.empty());
}

TEST(WorkAttribution, TheNamesOfTheCallsOwnKernelsAreKept) {
  const std::map<std::uint32_t, api_origin> origins = {{1, {3, true, "cuLaunchKernel"}},
                                                       {2, {3, true, "cuLaunchKernel"}},
                                                       {3, {0, true, "cuLaunchKernel"}}};
  const origin_lookup lookup = [&](std::uint32_t c) -> std::optional<api_origin> { return origins.at(c); };
  const std::vector<gpu_activity> records = {{gpu_activity::kind::kernel, "twice_kernel", 5, 10, 7, 1, 0, false},
                                             {gpu_activity::kind::kernel, "gemv2T_kernel", 10, 20, 7, 2, 0, false},
                                             {gpu_activity::kind::kernel, "kopt_l2_flush", 20, 30, 7, 3, 0, false}};
  const call_work w = attribute(records, 3, lookup);
  EXPECT_EQ(w.kernel_names, (std::set<std::string>{"gemv2T_kernel", "twice_kernel"}));  // kopt's flush is not the call's
}

TEST(ProblemSource, TheReferencesDeclarationWins) {
  const auto kernel = plan_of(solve_text);
  const auto reference = plan_of(std::string("// kopt: x[N] y[N]\n") + solve_text);
  const problem_choice c = choose_problem(kernel, &reference);
  EXPECT_EQ(c.source, "reference");
  EXPECT_EQ(c.plan, &reference);
  EXPECT_EQ(c.mismatch, "");
}

TEST(ProblemSource, WithoutAReferenceDeclarationTheKernelsIsUsed) {
  const auto kernel = plan_of(std::string("// kopt: x[N] y[N]\n") + solve_text);
  const auto unannotated = plan_of(solve_text);
  EXPECT_EQ(choose_problem(kernel, nullptr).source, "kernel");
  EXPECT_EQ(choose_problem(kernel, &unannotated).source, "kernel");
}

TEST(ProblemSource, ASmallerProblemInTheKernelIsAMismatch) {
  const auto kernel = plan_of(std::string("// kopt: x[N/2] y[N/2]\n") + solve_text);
  const auto reference = plan_of(std::string("// kopt: x[N] y[N]\n") + solve_text);
  const problem_choice c = choose_problem(kernel, &reference);
  EXPECT_EQ(c.source, "reference");
  EXPECT_NE(c.mismatch.find("the kernel declares x[500] in"), std::string::npos) << c.mismatch;
  EXPECT_NE(c.mismatch.find("the reference x[1000] in"), std::string::npos) << c.mismatch;
}

TEST(ProblemSource, EasierValuesInTheKernelAreAMismatch) {
  const auto kernel = plan_of(std::string("// kopt: x[N] y[N] values(x, 0)\n") + solve_text);
  const auto reference = plan_of(std::string("// kopt: x[N] y[N]\n") + solve_text);
  EXPECT_NE(choose_problem(kernel, &reference).mismatch, "");
}

}  // namespace
}  // namespace kopt::harness

namespace kopt::harness {
namespace {

TEST(PhysicalFloor, BytesOfTheProblemOverPeakBandwidth) {
  const auto plan = kernel::plan_kernel("k.cu", "// kopt: x[N] y[N] inout(y)\nextern \"C\" void solve(const float* x, float* y, int N) {}\n",
                                        std::nullopt, {{"N", "1000"}}, std::nullopt, {});
  EXPECT_EQ(floor_bytes(plan, 0), 4000u + 2 * 4000u);  // x read; y read and written (no L2)
  EXPECT_EQ(floor_bytes(plan, 1u << 20), 2 * 4000u);   // y's writes stay in the L2
  // An H200: 3.2 GHz HBM3e on a 6144-bit bus.
  EXPECT_DOUBLE_EQ(peak_dram_bandwidth(3201000, 6144), 2.0 * 3201e6 * 768);
  const double peak = 4.0e12;  // [bytes/s]
  // 4 MB at 4 TB/s: 1 us.
  EXPECT_EQ(floor_warning(0.0011, 4'000'000, peak), std::nullopt);
  const auto warning = floor_warning(0.0005, 4'000'000, peak);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->rfind("below the physical floor: the cold median is 0.50 us", 0), 0u) << *warning;
  EXPECT_EQ(floor_warning(0.0005, 4'000'000, 0), std::nullopt);
}

TEST(PhysicalFloor, OutputsTheL2CanHoldAreNotCountedSinceTheyMayReachDramAfterTheKernel) {
  // The softmax example at 4096 x 1024 in float32 on an H100 (L2 50 MB): it read 16 MiB and wrote
  // 16 MiB in 9.8 us, faster than all 32 MiB at 3.35 TB/s (10.0 us), because its writes stayed in
  // the L2.
  const auto plan = kernel::plan_kernel(
      "k.cu", "// kopt: x[N] y[N]\nextern \"C\" void solve(const float* x, float* y, int N) {}\n",
      std::nullopt, {{"N", "4194304"}}, std::nullopt, {});
  const std::uint64_t buffer = 4194304u * 4;
  EXPECT_EQ(floor_bytes(plan, 50u << 20), buffer);
  const double h100 = 3.35e12;
  EXPECT_EQ(floor_warning(0.0098, floor_bytes(plan, 50u << 20), h100), std::nullopt);
  // An L2 smaller than the outputs: what it cannot hold counts.
  EXPECT_EQ(floor_bytes(plan, 1u << 20), 2 * buffer - (1u << 20));
  // Reading half of the input is still below the floor (16 MiB: 5.0 us).
  const auto warning = floor_warning(0.0030, floor_bytes(plan, 50u << 20), h100);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("the outputs the L2 cannot hold"), std::string::npos) << *warning;
}

}  // namespace
}  // namespace kopt::harness

namespace kopt::harness {
namespace {

TEST(IntegrityFlags, EachFlagStartsWithItsClass) {
  child_report result;
  result.kernel = measure::timing_document{};
  result.kernel->streams = 2;
  result.kernel->side_streams = 1;
  result.kernel->persisting_l2_calls = 3;
  result.timed_call_checks = timed_call_summary{};
  result.timed_call_checks->calls = 40;
  add_integrity_flags(result, {"libcublas.so.13"});
  ASSERT_EQ(result.warnings.size(), 3u);
  EXPECT_EQ(result.warnings[0].rfind("side stream: the kernel's work ran on 1 stream(s) besides the default one (2 in "
                                     "all)",
                                     0),
            0u);
  EXPECT_EQ(result.warnings[1].rfind("persisting L2: solve() set a persisting-L2 limit in 3 of 40 calls", 0), 0u);
  EXPECT_EQ(result.warnings[2], "library call: solve() loaded libcublas.so.13; their work is timed as the kernel's");
  EXPECT_EQ(result.libraries_loaded_by_kernel, (std::vector<std::string>{"libcublas.so.13"}));
}

TEST(IntegrityFlags, HonestWorkIsNotFlagged) {
  child_report result;
  result.kernel = measure::timing_document{};
  result.kernel->streams = 1;
  add_integrity_flags(result, {});
  EXPECT_TRUE(result.warnings.empty());
}

TEST(LaunchHold, CoversTheLastCallsIssueTimeWithAMarginUpToACap) {
  using std::chrono::microseconds;
  // A Python reference issuing two torch ops in 40 us: held 50 us, so both are queued in time.
  EXPECT_EQ(launch_hold::next_hold(microseconds(40)), microseconds(50));
  // A solve() that synchronises inside returns after its work: the hold stops at the cap.
  EXPECT_EQ(launch_hold::next_hold(microseconds(5000)), launch_hold::longest);
  EXPECT_EQ(launch_hold::next_hold(microseconds(0)), microseconds(0));
}

}  // namespace
}  // namespace kopt::harness
