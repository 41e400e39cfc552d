#include "harness/runner_phases.h"

#include <gtest/gtest.h>

namespace kopt::harness {
namespace {

TEST(RunnerPhases, TheRunnersSamplingIsShownAsTheReferencesTiming) {
  const json phases = json{{"planning", 0.01}, {"python_runner", 1.0}};
  const json shown = with_runner_timing(phases, json{{"startup_s", 0.1}, {"timing_s", 0.6}});
  EXPECT_DOUBLE_EQ(shown["timing"].get<double>(), 0.6);
  EXPECT_NEAR(shown["python_runner"].get<double>(), 0.4, 1e-12);
  EXPECT_DOUBLE_EQ(shown["planning"].get<double>(), 0.01);
}

TEST(RunnerPhases, NothingMovesWithoutATimingOrARunnerPhase) {
  const json phases = json{{"python_runner", 1.0}};
  EXPECT_EQ(with_runner_timing(phases, json{{"startup_s", 0.1}}), phases);  // validation only
  EXPECT_EQ(with_runner_timing(phases, json(nullptr)), phases);             // a native reference
  const json native = json{{"outputs", 0.3}, {"timing", 0.5}};
  EXPECT_EQ(with_runner_timing(native, json{{"timing_s", 0.6}}), native);
}

TEST(RunnerPhases, TheTimingNeverExceedsTheRunnersPhase) {
  // The runner's clock starts after this process's: its timing may read a little longer.
  const json shown = with_runner_timing(json{{"python_runner", 0.5}}, json{{"timing_s", 0.52}});
  EXPECT_DOUBLE_EQ(shown["timing"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(shown["python_runner"].get<double>(), 0.0);
}

}  // namespace
}  // namespace kopt::harness
