// The timing document as sampling makes it: the Python toolkit's benchmark_result.json fields
// (average/median/min/max_ms) with kopt's additions, from known samples, no GPU; and its reader,
// which refuses a document a field short or of another version.
#include "measure/timing_document.h"

#include <gtest/gtest.h>

namespace kopt::measure {
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
  const timing_document t = timing_document_of(record_of(samples));
  EXPECT_DOUBLE_EQ(t.median_ms, 1.05);
  EXPECT_NEAR(t.average_ms, 1.05, 1e-12);
  EXPECT_DOUBLE_EQ(t.min_ms, 1.0);
  EXPECT_DOUBLE_EQ(t.max_ms, 1.1);
  EXPECT_EQ(t.sample_count, 11U);
  EXPECT_EQ(t.samples_ms.size(), 11U);
  EXPECT_LE(t.median_ci95_ms[0], 1.05);
  EXPECT_GE(t.median_ci95_ms[1], 1.05);
  EXPECT_LE(t.p10_ms, t.median_ms);
  EXPECT_GE(t.p90_ms, t.median_ms);
  EXPECT_DOUBLE_EQ(t.host_end_to_end_median_ms, 0.02);
  EXPECT_EQ(t.warmup_calls, 3);
  EXPECT_EQ(t.clocks.throttling.samples_throttled, 0U);
  // The toolkit's readers find its four figures under their names.
  const json written = to_document(t);
  EXPECT_EQ(written["schema"], "kopt.timing/v1");
  for (const char* key : {"average_ms", "median_ms", "min_ms", "max_ms"})
    EXPECT_TRUE(written[key].is_number()) << key;
}

TEST(TimingDocument, AShortCallOnA32NsTimerIsReportedByTrimmedMean) {
  // 4.640 and 4.672 us, the two steps a 4.65 us kernel reads as on a 32 ns timer.
  sampling_record r = record_of({});
  for (int i = 0; i < 30; ++i) {
    const std::uint64_t ns = i % 3 == 0 ? 4672 : 4640;
    r.gpu_ms.push_back(static_cast<double>(ns) / 1e6);
    r.host_ms.push_back(0.01);
  }
  const timing_document t = timing_document_of(r);
  EXPECT_EQ(t.timer_tick_ns, 32U);
  EXPECT_EQ(t.estimator, "trimmed_mean_20");
  EXPECT_DOUBLE_EQ(t.median_ms, 0.004640);
  EXPECT_GT(t.estimate_ms, 0.004640);
  EXPECT_LT(t.estimate_ms, 0.004672);
  EXPECT_DOUBLE_EQ(t.headline_ms(), t.estimate_ms);
}

TEST(TimingDocument, ALongCallIsReportedByItsMedian) {
  const timing_document t = timing_document_of(record_of({0.100032, 0.2, 0.3}));  // on a 32 ns timer
  EXPECT_EQ(t.estimator, "median");
  EXPECT_DOUBLE_EQ(t.estimate_ms, 0.2);
}

TEST(TimingDocument, ThrottledSamplesAreCountedAndNamed) {
  sampling_record r = record_of({1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  r.throttled_samples = {2, 7};
  r.throttle_reasons = {"sw_power_cap"};
  const timing_document t = timing_document_of(r);
  EXPECT_EQ(t.clocks.throttling.samples_throttled, 2U);
  EXPECT_EQ(throttle_warning("kernel", t),
            std::optional<std::string>(
                "2 of 10 kernel samples ran while the GPU reported throttling (sw_power_cap)"));
  EXPECT_EQ(throttle_warning("kernel", timing_document_of(record_of({1, 1, 1}))), std::nullopt);
}

TEST(TimingDocument, ItsReaderTakesWhatItsWriterWroteAndNamesWhatIsWrong) {
  const timing_document t = timing_document_of(record_of({1.0, 1.1, 1.2}));
  const json written = to_document(t);
  EXPECT_EQ(to_document(from_document<timing_document>(written)), written);
  json renamed = written;
  renamed["median"] = renamed["median_ms"];
  renamed.erase("median_ms");
  try {
    (void)from_document<timing_document>(renamed);
    FAIL() << "a document without median_ms was read";
  } catch (const document_error& e) {
    EXPECT_EQ(e.field(), "median_ms");
  }
  json wrong = written;
  wrong["clocks"]["throttling"]["reasons"] = "sw_power_cap";
  try {
    (void)from_document<timing_document>(wrong);
    FAIL() << "a string was read as a list";
  } catch (const document_error& e) {
    EXPECT_EQ(e.field(), "clocks.throttling.reasons");
  }
}

}  // namespace
}  // namespace kopt::measure
