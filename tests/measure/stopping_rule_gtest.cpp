#include "measure/stopping_rule.h"

#include <cmath>

#include <gtest/gtest.h>

namespace kopt::measure {
namespace {
using seconds = std::chrono::duration<double>;

std::vector<double> around(double center, double spread, std::size_t n) {
  // Deterministic values spread evenly over [center - spread, center + spread].
  std::vector<double> samples;
  for (std::size_t i = 0; i < n; ++i) {
    samples.push_back(center - spread + 2.0 * spread * static_cast<double>(i) / static_cast<double>(n - 1));
  }
  return samples;
}

TEST(StoppingRule, WaitsForMinimumSamplesAndTime) {
  const stopping_rule rule;  // >= 10 samples, >= 0.1 s
  EXPECT_EQ(should_stop(rule, around(100, 0, 9), seconds(5)), stop_reason::keep_going);
  EXPECT_EQ(should_stop(rule, around(100, 0, 50), seconds(0.05)), stop_reason::keep_going);
  EXPECT_EQ(should_stop(rule, around(100, 0, 50), seconds(0.1)), stop_reason::converged);
}

TEST(StoppingRule, StopsWhenTheMedianIntervalIsNarrow) {
  const stopping_rule rule;
  // 100 samples spread +-1 % around 100: the 40th..61st order statistics span about 0.42,
  // a relative half width of about 0.21 %: under the 0.5 % target.
  EXPECT_NEAR(relative_median_half_width(around(100, 1, 100)), (100.2121 - 99.7879) / 2 / 100, 1e-4);
  EXPECT_EQ(should_stop(rule, around(100, 1, 100), seconds(1)), stop_reason::converged);
  // Spread +-20 %: far from converged.
  EXPECT_EQ(should_stop(rule, around(100, 20, 100), seconds(1)), stop_reason::keep_going);
}

TEST(StoppingRule, LimitsWinOverNoise) {
  stopping_rule rule;
  rule.max_samples = 200;
  EXPECT_EQ(should_stop(rule, around(100, 20, 200), seconds(1)), stop_reason::sample_limit);
  EXPECT_EQ(should_stop(rule, around(100, 20, 100), seconds(10)), stop_reason::time_limit);
}

TEST(StoppingRule, TooFewSamplesHaveNoInterval) {
  EXPECT_TRUE(std::isinf(relative_median_half_width({1, 2, 3, 4, 5})));
}

TEST(StoppingMonitor, LooksAtTheIntervalLogarithmicallyOften) {
  // Noise the rule never accepts: every look is a full sort, so the number of looks is the cost.
  stopping_rule rule;
  rule.max_samples = 100000;
  stopping_monitor monitor(rule);
  std::vector<double> samples;
  stop_reason reason = stop_reason::keep_going;
  for (std::size_t i = 0; i < 100000 && reason == stop_reason::keep_going; ++i) {
    samples.push_back(i % 2 == 0 ? 50.0 : 150.0);
    reason = monitor.update(samples, seconds(1));
  }
  EXPECT_EQ(reason, stop_reason::sample_limit);
  // Growth by 1/16 per look from 10 to 100,000 samples: about 16 * ln(10^4) ~ 150 looks.
  EXPECT_LT(monitor.interval_evaluations(), 250u);
  EXPECT_GT(monitor.interval_evaluations(), 100u);
}

TEST(StoppingMonitor, StopsAtMost1In16SamplesLaterThanTheRule) {
  stopping_rule rule;
  stopping_monitor monitor(rule);
  std::vector<double> samples;
  std::size_t rule_stops_at = 0;
  std::size_t monitor_stops_at = 0;
  for (std::size_t n = 1; n <= 2000 && monitor_stops_at == 0; ++n) {
    samples = around(100, 1, n);
    if (rule_stops_at == 0 && should_stop(rule, samples, seconds(1)) == stop_reason::converged) rule_stops_at = n;
    if (monitor.update(samples, seconds(1)) == stop_reason::converged) monitor_stops_at = n;
  }
  ASSERT_GT(rule_stops_at, 0u);
  EXPECT_GE(monitor_stops_at, rule_stops_at);
  EXPECT_LE(monitor_stops_at, rule_stops_at + rule_stops_at / 16 + 1);
}

TEST(StoppingMonitor, TimeLimitIsSeenOnTheNextSample) {
  stopping_monitor monitor(stopping_rule{});
  std::vector<double> samples = around(100, 50, 40);
  EXPECT_EQ(monitor.update(samples, seconds(1)), stop_reason::keep_going);
  samples.push_back(100);
  EXPECT_EQ(monitor.update(samples, seconds(11)), stop_reason::time_limit);
}

}  // namespace
}  // namespace kopt::measure
