// The timing document and the fields derived from it, as `kopt bench` writes them: the Python
// toolkit's benchmark_result.json fields (kernel.average_ms/median_ms/min_ms/max_ms,
// speedup_vs_reference) with kopt's additions, from known samples, no GPU.
#include <gtest/gtest.h>

#include "harness/result_fields.h"
#include "harness/sampling.h"

namespace kopt::harness {
namespace {

sampling_record record_of(std::vector<double> gpu_ms) {
  sampling_record r;
  r.host_ms.assign(gpu_ms.size(), 0.02);
  r.gpu_ms = std::move(gpu_ms);
  r.kernels_per_call = 1;
  r.streams = 1;
  r.stop_reason = "converged";
  r.warmup_calls = 3;
  return r;
}

TEST(TimingDocument, CarriesTheToolkitsFieldsAndKoptsAdditions) {
  // 1.00, 1.01, ..., 1.10 ms: median 1.05, mean 1.05, min 1.00, max 1.10.
  std::vector<double> samples;
  for (int i = 0; i <= 10; ++i) samples.push_back(1.0 + 0.01 * i);
  const json t = timing_document(record_of(samples));
  EXPECT_DOUBLE_EQ(t["median_ms"].get<double>(), 1.05);
  EXPECT_NEAR(t["average_ms"].get<double>(), 1.05, 1e-12);
  EXPECT_DOUBLE_EQ(t["min_ms"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(t["max_ms"].get<double>(), 1.1);
  EXPECT_EQ(t["sample_count"], 11);
  EXPECT_EQ(t["samples_ms"].size(), 11u);
  const double low = t["median_ci95_ms"][0].get<double>();
  const double high = t["median_ci95_ms"][1].get<double>();
  EXPECT_LE(low, 1.05);
  EXPECT_GE(high, 1.05);
  EXPECT_LE(t["p10_ms"].get<double>(), t["median_ms"].get<double>());
  EXPECT_GE(t["p90_ms"].get<double>(), t["median_ms"].get<double>());
  EXPECT_DOUBLE_EQ(t["host_end_to_end_median_ms"].get<double>(), 0.02);
  for (const char* key : {"stdev_ms", "stop_reason", "time_source", "kernels_per_call", "streams", "warmup_calls", "clocks"}) {
    EXPECT_TRUE(t.contains(key)) << key;
  }
  EXPECT_EQ(t["clocks"]["throttling"]["samples_throttled"], 0);
}

TEST(TimingDocument, AShortCallOnA32NsTimerIsReportedByTrimmedMean) {
  // 4.640 and 4.672 us, the two steps a 4.65 us kernel reads as on a 32 ns timer.
  sampling_record r = record_of({});
  for (int i = 0; i < 30; ++i) {
    const std::uint64_t ns = i % 3 == 0 ? 4672 : 4640;
    r.gpu_ms.push_back(static_cast<double>(ns) / 1e6);
    r.host_ms.push_back(0.01);
  }
  const json t = timing_document(r);
  EXPECT_EQ(t["timer_tick_ns"], 32);
  EXPECT_EQ(t["estimator"], "trimmed_mean_20");
  EXPECT_DOUBLE_EQ(t["median_ms"].get<double>(), 0.004640);
  EXPECT_GT(t["estimate_ms"].get<double>(), 0.004640);
  EXPECT_LT(t["estimate_ms"].get<double>(), 0.004672);
  EXPECT_DOUBLE_EQ(headline_ms(t), t["estimate_ms"].get<double>());
}

TEST(TimingDocument, ALongCallIsReportedByItsMedian) {
  sampling_record r = record_of({0.100032, 0.2, 0.3});  // on a 32 ns timer
  const json t = timing_document(r);
  EXPECT_EQ(t["estimator"], "median");
  EXPECT_DOUBLE_EQ(t["estimate_ms"].get<double>(), 0.2);
}

TEST(TimingDocument, ThrottledSamplesAreCountedAndNamed) {
  sampling_record r = record_of({1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  r.throttled_samples = {2, 7};
  r.throttle_reasons = {"sw_power_cap"};
  const json t = timing_document(r);
  EXPECT_EQ(t["clocks"]["throttling"]["samples_throttled"], 2);
  EXPECT_EQ(throttle_warning("kernel", t),
            std::optional<std::string>("2 of 10 kernel samples ran while the GPU reported throttling (sw_power_cap)"));
  EXPECT_EQ(throttle_warning("kernel", timing_document(record_of({1, 1, 1}))), std::nullopt);
}

TEST(ResultFields, SpeedupIsTheRatioOfMediansWithItsIntervalAndVerdict) {
  std::vector<double> kernel;
  std::vector<double> reference;
  for (int i = 0; i < 40; ++i) {
    kernel.push_back(1.0 + 0.001 * (i % 5));
    reference.push_back(2.0 + 0.002 * (i % 5));
  }
  json result{{"kernel", timing_document(record_of(kernel))}, {"reference", timing_document(record_of(reference))}};
  add_speedup(result);
  EXPECT_DOUBLE_EQ(result["speedup_vs_reference"].get<double>(), 2.004 / 1.002);
  ASSERT_TRUE(result.contains("speedup_vs_reference_ci95"));
  EXPECT_LE(result["speedup_vs_reference_ci95"][0].get<double>(), result["speedup_vs_reference"].get<double>());
  EXPECT_GE(result["speedup_vs_reference_ci95"][1].get<double>(), result["speedup_vs_reference"].get<double>());
  EXPECT_EQ(result["kernel_vs_reference"]["verdict"], "faster");
}

TEST(ResultFields, SameSamplesAreNeitherFasterNorSlower) {
  const std::vector<double> samples = {1.0, 1.001, 0.999, 1.0, 1.002, 0.998, 1.0, 1.001, 0.999, 1.0};
  json result{{"kernel", timing_document(record_of(samples))}, {"reference", timing_document(record_of(samples))}};
  add_speedup(result);
  EXPECT_DOUBLE_EQ(result["speedup_vs_reference"].get<double>(), 1.0);
  EXPECT_EQ(result["kernel_vs_reference"]["verdict"], "same");
}

}  // namespace
}  // namespace kopt::harness
