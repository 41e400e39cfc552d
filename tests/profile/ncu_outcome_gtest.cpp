#include "profile/ncu_outcome.h"

#include <gtest/gtest.h>

namespace kopt::profile {
namespace {

// A capture that went well: ncu ran the child, the child wrote an "ok" result, the report exists.
capture_facts good_run() {
  capture_facts f;
  f.ncu_output =
      "==PROF== Connected to process 4242 (/opt/kopt/bin/kopt)\n"
      "==PROF== Profiling \"softmax_naive_kernel\" - 0: 0%....50%....100% - 38 passes\n"
      "==PROF== Disconnected from process 4242\n"
      "==PROF== Report: /out/.kopt-profile-1.partial/full.ncu-rep\n";
  f.ncu_started = true;
  f.ncu_succeeded = true;
  f.ncu_end = "exit code 0";
  f.timeout_s = 600;
  f.child_wrote_result = true;
  f.child_status = "ok";
  f.report_written = true;
  return f;
}

TEST(JudgeCapture, GoodRun) {
  EXPECT_EQ(judge_capture(good_run(), {}).verdict, capture_verdict::ok);
}

TEST(JudgeCapture, MissingCounterPermissionIsAnEnvironmentErrorWithTheFix) {
  capture_facts f = good_run();
  f.ncu_output += "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance "
                  "Counters on the target device 0.\n";
  f.ncu_succeeded = false;
  f.ncu_end = "exit code 1";
  f.report_written = false;
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::environment_error);
  EXPECT_NE(o.headline.find("ERR_NVGPUCTRPERM"), std::string::npos);
  EXPECT_NE(o.headline.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
  EXPECT_NE(o.detail.find("does not have permission"), std::string::npos);
}

TEST(JudgeCapture, PermissionWinsOverEverythingElse) {
  capture_facts f;
  f.ncu_output = "==ERROR== ERR_NVGPUCTRPERM\n";
  EXPECT_EQ(judge_capture(f, {}).verdict, capture_verdict::environment_error);
}

TEST(JudgeCapture, NcuThatCannotStart) {
  capture_facts f;
  f.ncu_start_error = "cannot execute /x/ncu: Permission denied";
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::environment_error);
  EXPECT_NE(o.headline.find("Permission denied"), std::string::npos);
}

TEST(JudgeCapture, NcuRejectingItsOptionsBeforeRunningTheProgram) {
  capture_facts f;
  f.ncu_started = true;
  f.ncu_end = "exit code 1";
  f.ncu_output = "==ERROR== Could not find section 'NoSuchSection'.\n";
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::environment_error);
  EXPECT_EQ(o.headline, "ncu failed before running the kernel (exit code 1): ==ERROR== Could not find section "
                        "'NoSuchSection'.");
}

TEST(JudgeCapture, ChildEnvironmentErrorIsPassedOn) {
  capture_facts f = good_run();
  f.ncu_output += "kopt: error: cannot load the kernel library /x.so: undefined symbol: foo\n";
  f.child_wrote_result = false;
  f.ncu_succeeded = false;
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::environment_error);
  EXPECT_EQ(o.headline, "cannot load the kernel library /x.so: undefined symbol: foo");
}

TEST(JudgeCapture, ChildKilledUnderNcuIsAKernelFailure) {
  capture_facts f = good_run();
  f.child_wrote_result = false;
  f.ncu_succeeded = false;
  f.ncu_end = "exit code 139";
  f.ncu_output += "==ERROR== The application returned an error code (139).\n";
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::kernel_failed);
  EXPECT_EQ(o.headline, "the kernel's process died under ncu (exit code 139)");
  EXPECT_NE(o.detail.find("error code (139)"), std::string::npos);
}

TEST(JudgeCapture, KernelFaultReportedByTheChild) {
  capture_facts f = good_run();
  f.child_status = "crashed";
  f.child_reason = "the kernel failed on the device: an illegal memory access was encountered";
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::kernel_failed);
  EXPECT_EQ(o.headline, "the kernel failed under the profiler (crashed): the kernel failed on the device: an illegal "
                        "memory access was encountered");
}

TEST(JudgeCapture, TimeoutNamesTheLimit) {
  capture_facts f = good_run();
  f.ncu_timed_out = true;
  f.ncu_succeeded = false;
  f.child_wrote_result = false;
  f.timeout_s = 30;
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::kernel_failed);
  EXPECT_NE(o.headline.find("within 30 s"), std::string::npos);
  EXPECT_NE(o.headline.find("--timeout"), std::string::npos);
}

TEST(JudgeCapture, NoReportMeansNothingCapturedWithAHintForTheRegex) {
  capture_facts f = good_run();
  f.report_written = false;
  f.ncu_output += "==WARNING== No kernels were profiled.\n";
  ncu_capture_options options;
  options.kernel_name_regex = "nomatch";
  const auto o = judge_capture(f, options);
  EXPECT_EQ(o.verdict, capture_verdict::nothing_captured);
  EXPECT_EQ(o.headline, "ncu captured no kernel launch: --kernel-name-regex 'nomatch' matched no kernel that solve() "
                        "launched");
  EXPECT_NE(o.detail.find("No kernels were profiled"), std::string::npos);
}

TEST(JudgeCapture, NcuFailingWithoutAReportIsAKernelFailure) {
  capture_facts f = good_run();
  f.report_written = false;
  f.ncu_succeeded = false;
  f.ncu_end = "exit code 1";
  f.ncu_output += "==ERROR== Failed to profile \"k\" in process 4242\n";
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::kernel_failed);
  EXPECT_NE(o.detail.find("Failed to profile"), std::string::npos);
}

TEST(JudgeCapture, NcuFailingDespiteAReportIsStillAFailure) {
  capture_facts f = good_run();
  f.ncu_succeeded = false;
  f.ncu_end = "exit code 1";
  f.ncu_output += "==ERROR== Failed to profile \"k2\" in process 4242\n";
  const auto o = judge_capture(f, {});
  EXPECT_EQ(o.verdict, capture_verdict::kernel_failed);
  EXPECT_EQ(o.headline,
            "ncu reported a failure while profiling (exit code 1): ==ERROR== Failed to profile \"k2\" in process 4242");
}

TEST(NothingCaptured, HintFitsTheFilters) {
  ncu_capture_options options;
  EXPECT_NE(nothing_captured(options, 1, "").headline.find("solve() launched no kernel"), std::string::npos);
  options.launch_skip = 5;
  EXPECT_NE(nothing_captured(options, 2, "").headline.find("--launch-skip 5 skipped every launch of the 2 solve()"),
            std::string::npos);
  EXPECT_EQ(nothing_captured(options, 2, "").verdict, capture_verdict::nothing_captured);
}

TEST(ProblemLines, KeepsNcuErrorsAndWarningsAndKoptLines) {
  const std::string output =
      "==PROF== Connected to process 1\n==WARNING== a\nplain line\n  ==ERROR== b  \nkopt: another kopt is measuring\n";
  EXPECT_EQ(problem_lines(output), "==WARNING== a\n==ERROR== b\nkopt: another kopt is measuring");
  EXPECT_EQ(problem_lines(output, 1), "==WARNING== a");
}

}  // namespace
}  // namespace kopt::profile
