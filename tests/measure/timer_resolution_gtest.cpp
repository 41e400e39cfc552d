#include "measure/timer_resolution.h"

#include <gtest/gtest.h>

namespace kopt::measure {
namespace {

TEST(TimerTick, IsTheCommonStepOfTheDurations) {
  EXPECT_EQ(timer_tick_ns({4672, 4704, 4640, 4736, 4672, 4608}), 32u);
  EXPECT_EQ(timer_tick_ns({1001, 1002, 1003}), 1u);
  EXPECT_EQ(timer_tick_ns({}), 0u);
  EXPECT_EQ(timer_tick_ns({0, 0}), 0u);
}

TEST(TimerTick, ANanosecondOfRoundingDoesNotHideTheStep) {
  // Spans an H200 gave for a 4.6 us kernel: multiples of 32 ns, a few of them 1 ns off.
  const std::vector<std::uint64_t> h200 = {4735, 4640, 4608, 4448, 4544, 5024, 4609, 4672, 4512, 4640, 4480, 4608,
                                           4672, 4672, 4640, 4704, 4544, 4576, 4640, 4575, 4640, 4608, 4640, 4672};
  EXPECT_EQ(timer_tick_ns(h200), 32u);
  // Durations with no step: 1 ns stays 1 ns.
  std::vector<std::uint64_t> fine;
  for (std::uint64_t d = 1001; d < 1041; d += 3) fine.push_back(d);
  EXPECT_EQ(timer_tick_ns(fine), 1u);
  // Too few durations to tell: the common divisor as it is.
  EXPECT_EQ(timer_tick_ns({4735, 4640, 4608}), 1u);
  // One duration repeated (and one off by 1) proves no step.
  EXPECT_EQ(timer_tick_ns({4608, 4608, 4608, 4608, 4608, 4608, 4608, 4608, 4608, 4609}), 1u);
}

TEST(TrimmedMean, DropsTheTailsOnBothSides) {
  EXPECT_DOUBLE_EQ(trimmed_mean({1, 2, 3, 4, 1000}, 0.2), 3.0);
  EXPECT_DOUBLE_EQ(trimmed_mean({5, 1, 3}, 0.0), 3.0);
  EXPECT_DOUBLE_EQ(trimmed_mean({}, 0.2), 0.0);
}

TEST(Headline, QuantizedShortCallsGetATrimmedMean) {
  // 4.64 and 4.672 us on a 32 ns timer: the median can only be one of the steps.
  std::vector<double> samples;
  for (int i = 0; i < 60; ++i) samples.push_back(0.004640);
  for (int i = 0; i < 40; ++i) samples.push_back(0.004672);
  const headline_estimate short_call = headline(samples, 32);
  EXPECT_EQ(short_call.estimator, "trimmed_mean_20");
  EXPECT_GT(short_call.value_ms, 0.004640);
  EXPECT_LT(short_call.value_ms, 0.004672);
}

TEST(Headline, LongCallsKeepTheMedian) {
  const headline_estimate long_call = headline({0.100, 0.101, 0.102, 0.5}, 32);
  EXPECT_EQ(long_call.estimator, "median");
  EXPECT_DOUBLE_EQ(long_call.value_ms, 0.1015);
  // An unknown tick (no positive duration) keeps the median too.
  EXPECT_EQ(headline({0.001, 0.001}, 0).estimator, "median");
}

}  // namespace
}  // namespace kopt::measure
