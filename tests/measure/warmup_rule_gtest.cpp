#include "measure/warmup_rule.h"

#include <gtest/gtest.h>

namespace kopt::measure {
namespace {
using seconds = std::chrono::duration<double>;

TEST(WarmupRule, WaitsUntilTheMedianStopsMoving) {
  const warmup_rule rule;
  // A first call that loads the module, then a clock ramping up over a few calls.
  std::vector<double> calls = {900, 140, 130, 120, 110, 105, 102, 101, 100, 100};
  EXPECT_EQ(warmup_progress(rule, calls, seconds(0.01)), warmup_state::warming);
  for (int i = 0; i < 5; ++i) calls.push_back(100);
  EXPECT_EQ(warmup_progress(rule, calls, seconds(0.01)), warmup_state::stable);
}

TEST(WarmupRule, NeverStopsBeforeTheMinimum) {
  warmup_rule rule;
  rule.min_calls = 20;
  const std::vector<double> steady(12, 100.0);
  EXPECT_EQ(warmup_progress(rule, steady, seconds(5)), warmup_state::warming);
  const std::vector<double> enough(20, 100.0);
  EXPECT_EQ(warmup_progress(rule, enough, seconds(0.01)), warmup_state::stable);
}

TEST(WarmupRule, GivesUpAfterItsTimeLimit) {
  const warmup_rule rule;
  std::vector<double> drifting;
  for (int i = 0; i < 30; ++i) drifting.push_back(100.0 + 10.0 * i);
  EXPECT_EQ(warmup_progress(rule, drifting, seconds(0.5)), warmup_state::warming);
  EXPECT_EQ(warmup_progress(rule, drifting, seconds(1.0)), warmup_state::time_limit);
}

}  // namespace
}  // namespace kopt::measure
