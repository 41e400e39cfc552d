#include "harness/runner_phases.h"

#include <gtest/gtest.h>

namespace kopt::harness {
namespace {

runner_overhead timed(double timing_s) {
  runner_overhead o;
  o.startup_s = 0.1;
  o.timing_s = timing_s;
  return o;
}

TEST(RunnerPhases, TheRunnersSamplingIsShownAsTheReferencesTiming) {
  const phase_seconds phases{{"planning", 0.01}, {"python_runner", 1.0}};
  const phase_seconds shown = with_runner_timing(phases, timed(0.6));
  ASSERT_EQ(shown.size(), 3U);
  EXPECT_EQ(shown[0], (std::pair<std::string, double>{"planning", 0.01}));
  EXPECT_EQ(shown[1].first, "python_runner");
  EXPECT_NEAR(shown[1].second, 0.4, 1e-12);
  EXPECT_EQ(shown[2], (std::pair<std::string, double>{"timing", 0.6}));
}

TEST(RunnerPhases, NothingMovesWithoutATimingOrARunnerPhase) {
  const phase_seconds phases{{"python_runner", 1.0}};
  runner_overhead untimed;
  untimed.startup_s = 0.1;
  EXPECT_EQ(with_runner_timing(phases, untimed), phases);        // validation only
  EXPECT_EQ(with_runner_timing(phases, std::nullopt), phases);   // a native reference
  const phase_seconds native{{"outputs", 0.3}, {"timing", 0.5}};
  EXPECT_EQ(with_runner_timing(native, timed(0.6)), native);
}

TEST(RunnerPhases, TheTimingNeverExceedsTheRunnersPhase) {
  // The runner's clock starts after this process's: its timing may read a little longer.
  const phase_seconds shown = with_runner_timing(phase_seconds{{"python_runner", 0.5}}, timed(0.52));
  ASSERT_EQ(shown.size(), 2U);
  EXPECT_DOUBLE_EQ(shown[1].second, 0.5);
  EXPECT_DOUBLE_EQ(shown[0].second, 0.0);
}

}  // namespace
}  // namespace kopt::harness
