// The verdict as a pure function of the two sides' reports and the compared outputs: each rule a
// user relies on (the first failure in time wins, a failed kernel keeps no timing, a reference
// that failed leaves correctness unknown, the speedup comes from both sides' samples).
#include "pipeline/bench_verdict.h"

#include <gtest/gtest.h>

#include "support/timings.h"

namespace kopt::pipeline {
namespace {
using harness::child_report;
using harness::evidence_key;
using harness::evidence_kind;
using harness::report_of;
using harness::run_status;

child_report timed_kernel(double ms) {
  child_report k = report_of(run_status::ok);
  k.protocol = "cold: L2 flushed before every sample by reading 120.00 MiB";
  k.kernel = testing::timing_around(ms);
  k.evidence = {evidence_key{evidence_kind::seed, 0, "before timing"},
                evidence_key{evidence_kind::call, 7, "timed"}};
  k.phases_s = {{"validation", 0.1}, {"timing", 0.3}};
  return k;
}

child_report timed_reference(double ms) {
  child_report r = report_of(run_status::ok);
  r.reference = testing::timing_around(ms);
  r.phases_s = {{"outputs", 0.2}};
  return r;
}

outputs_judgement passed_outputs(std::size_t keys = 2) {
  outputs_judgement o;
  o.correctness.checked = true;
  o.correctness.output_tensor_count = 1;
  o.correctness.seeds = {seed_check{0, "before timing", true}};
  o.compared = keys;
  return o;
}

judged_sides both(child_report kernel, child_report reference) {
  judged_sides sides;
  sides.kernel = std::move(kernel);
  sides.has_reference = true;
  sides.reference = std::move(reference);
  return sides;
}

TEST(BenchVerdict, APassingKernelKeepsBothTimingsAndTheSpeedupComesFromTheirSamples) {
  const judged_sides sides = both(timed_kernel(0.5), timed_reference(1.0));
  ASSERT_TRUE(outputs_comparable(sides));
  const bench_result r = bench_verdict(sides, passed_outputs());
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.correctness.passed, true);
  ASSERT_TRUE(r.kernel && r.reference);
  ASSERT_TRUE(r.speedup_vs_reference);
  EXPECT_DOUBLE_EQ(*r.speedup_vs_reference, r.reference->headline_ms() / r.kernel->headline_ms());
  EXPECT_NEAR(*r.speedup_vs_reference, 2.0, 0.01);
  ASSERT_TRUE(r.kernel_vs_reference);
  EXPECT_EQ(r.kernel_vs_reference->verdict, measure::verdict::faster);
  ASSERT_TRUE(r.speedup_vs_reference_ci95);
  EXPECT_LT((*r.speedup_vs_reference_ci95)[0], *r.speedup_vs_reference);
  EXPECT_GT((*r.speedup_vs_reference_ci95)[1], *r.speedup_vs_reference);
  EXPECT_EQ(r.phases_s.kernel, sides.kernel.phases_s);
  EXPECT_EQ(r.phases_s.reference, sides.reference->phases_s);
}

TEST(BenchVerdict, AFailingOutputFailsTheKernelAndDropsItsTimings) {
  outputs_judgement o = passed_outputs();
  o.failure = "timed call 7 (checked at random): no write: y has 1,024 elements left as poison";
  const bench_result r = bench_verdict(both(timed_kernel(0.5), timed_reference(1.0)), o);
  EXPECT_EQ(r.status, run_status::failed);
  EXPECT_EQ(r.reason, *o.failure);
  EXPECT_EQ(r.correctness.passed, false);
  EXPECT_FALSE(r.kernel);
  EXPECT_FALSE(r.reference);
  EXPECT_FALSE(r.speedup_vs_reference);
}

TEST(BenchVerdict, AKeptOutputThatFailedCameBeforeTheKernelsOwnLaterFailure) {
  child_report kernel = timed_kernel(0.5);
  kernel.status = run_status::failed;
  kernel.reason = "host thread: work launched after solve() returned";
  judged_sides sides = both(kernel, timed_reference(1.0));
  ASSERT_TRUE(reference_needed(sides)) << "it kept outputs: they are compared";
  outputs_judgement o = passed_outputs();
  o.failure = "validation failed (seed 0): wrong values";
  EXPECT_EQ(bench_verdict(sides, o).reason, "validation failed (seed 0): wrong values");
  // Outputs that passed leave the kernel's own failure as the verdict.
  const bench_result kept = bench_verdict(sides, passed_outputs());
  EXPECT_EQ(kept.reason, kernel.reason);
  EXPECT_EQ(kept.correctness.passed, false);
}

TEST(BenchVerdict, AReferenceThatFailedLeavesCorrectnessUnknown) {
  child_report reference =
      report_of(run_status::crashed, "the reference's measuring process died (signal 11)");
  const judged_sides sides = both(timed_kernel(0.5), reference);
  EXPECT_FALSE(outputs_comparable(sides));
  outputs_judgement unchecked;  // judge_outputs without folders
  const bench_result r = bench_verdict(sides, unchecked);
  EXPECT_EQ(r.status, run_status::crashed);
  EXPECT_EQ(r.reason, reference.reason);
  EXPECT_TRUE(r.correctness.checked);
  EXPECT_EQ(r.correctness.passed, std::nullopt);
}

TEST(BenchVerdict, AReferenceChangedWhileTheKernelRanIsTampering) {
  judged_sides sides = both(timed_kernel(0.5), timed_reference(1.0));
  sides.reference_tampered = "/k/softmax_ref.py";
  EXPECT_FALSE(reference_needed(sides));
  const bench_result r = bench_verdict(sides, outputs_judgement{});
  EXPECT_EQ(r.status, run_status::failed);
  EXPECT_EQ(r.reason.rfind("reference tampering: /k/softmax_ref.py changed", 0), 0U) << r.reason;
  EXPECT_EQ(r.correctness.passed, false);
}

TEST(BenchVerdict, TheKernelsHandInKoptsFilesFailsTheKernel) {
  child_report reference =
      report_of(run_status::failed, "problem changed: setup()'s tensors differ from their digests");
  reference.kernel_at_fault = true;
  const bench_result r = bench_verdict(both(timed_kernel(0.5), reference), outputs_judgement{});
  EXPECT_EQ(r.status, run_status::failed);
  EXPECT_EQ(r.reason, reference.reason);
}

TEST(BenchVerdict, NothingComparedIsAFailureNotAPass) {
  const bench_result r = bench_verdict(both(timed_kernel(0.5), timed_reference(1.0)), passed_outputs(0));
  EXPECT_EQ(r.status, run_status::failed);
  EXPECT_EQ(r.reason.rfind("nothing was compared", 0), 0U) << r.reason;
}

TEST(BenchVerdict, WithoutAReferenceTheKernelsTimingStandsAlone) {
  judged_sides sides;
  sides.kernel = timed_kernel(0.5);
  const bench_result r = bench_verdict(sides, outputs_judgement{});
  EXPECT_TRUE(r.ok());
  EXPECT_FALSE(r.correctness.checked);
  EXPECT_TRUE(r.kernel);
  EXPECT_FALSE(r.speedup_vs_reference);
}

TEST(BenchVerdict, ThrottledSamplesAreSaidForEachSide) {
  child_report kernel = timed_kernel(0.5);
  kernel.kernel->clocks.throttling = {3, {1, 2, 3}, {"sw_power_cap"}};
  const bench_result r = bench_verdict(both(kernel, timed_reference(1.0)), passed_outputs());
  ASSERT_EQ(r.warnings.size(), 1U);
  EXPECT_EQ(r.warnings[0], "3 of 200 kernel samples ran while the GPU reported throttling (sw_power_cap)");
}

measure::timing_document timing_of(const std::vector<double>& samples) {
  measure::sampling_record r;
  r.gpu_ms = samples;
  r.host_ms.assign(samples.size(), 0.02);
  r.stop_reason = "converged";
  return measure::timing_document_of(r);
}

TEST(TimingConclusions, SpeedupIsTheRatioOfMediansWithItsIntervalAndVerdict) {
  std::vector<double> kernel;
  std::vector<double> reference;
  for (int i = 0; i < 40; ++i) {
    kernel.push_back(1.0 + 0.001 * (i % 5));
    reference.push_back(2.0 + 0.002 * (i % 5));
  }
  bench_result r;
  r.kernel = timing_of(kernel);
  r.reference = timing_of(reference);
  add_timing_conclusions(r);
  ASSERT_TRUE(r.speedup_vs_reference);
  EXPECT_DOUBLE_EQ(*r.speedup_vs_reference, 2.004 / 1.002);
  ASSERT_TRUE(r.speedup_vs_reference_ci95);
  EXPECT_LE((*r.speedup_vs_reference_ci95)[0], *r.speedup_vs_reference);
  EXPECT_GE((*r.speedup_vs_reference_ci95)[1], *r.speedup_vs_reference);
  ASSERT_TRUE(r.kernel_vs_reference);
  EXPECT_EQ(r.kernel_vs_reference->verdict, measure::verdict::faster);
  EXPECT_EQ(to_document(*r.kernel_vs_reference)["verdict"], "faster");
}

TEST(TimingConclusions, SameSamplesAreNeitherFasterNorSlower) {
  const std::vector<double> samples = {1.0, 1.001, 0.999, 1.0, 1.002, 0.998, 1.0, 1.001, 0.999, 1.0};
  bench_result r;
  r.kernel = timing_of(samples);
  r.reference = timing_of(samples);
  add_timing_conclusions(r);
  EXPECT_DOUBLE_EQ(*r.speedup_vs_reference, 1.0);
  EXPECT_EQ(r.kernel_vs_reference->verdict, measure::verdict::same);
}

}  // namespace
}  // namespace kopt::pipeline
