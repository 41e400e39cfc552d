// Noise-aware outcomes: an unchanged kernel is not a win or a loss, 3 % is seen, too few
// samples say so, and a recovery measured against the version it was built from is no win.
#include "measure/outcome.h"

#include <random>

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::measure {
namespace {

// `n` timings around `median_ms` with 0.5 % noise, from a fixed seed.
std::vector<double> samples(double median_ms, int n, std::uint64_t seed, double noise = 0.005) {
  std::mt19937_64 generator(seed);
  std::normal_distribution<double> jitter(0, noise * median_ms);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(median_ms + jitter(generator));
  return out;
}

TEST(Outcome, TheSameKernelTwiceIsNeutralNeverAWinOrALoss) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto e = classify_against(samples(0.300, 200, seed), samples(0.300, 200, seed + 100), 0.000032);
    EXPECT_EQ(e.verdict, outcome::neutral) << "seed " << seed << ": ratio " << e.ratio << " in [" << e.ratio_ci95.low
                                           << ", " << e.ratio_ci95.high << "]";
  }
}

TEST(Outcome, ThreePercentSlowerIsNegativeAndFasterIsPositive) {
  const auto slower = classify_against(samples(0.309, 200, 7), samples(0.300, 200, 8), 0.000032);
  EXPECT_EQ(slower.verdict, outcome::negative);
  EXPECT_NEAR(slower.ratio, 1.03, 0.005);
  const auto faster = classify_against(samples(0.291, 200, 9), samples(0.300, 200, 10), 0.000032);
  EXPECT_EQ(faster.verdict, outcome::positive);
}

TEST(Outcome, FewNoisySamplesAreInconclusiveAndSaySo) {
  const auto e = classify_against(samples(0.306, 5, 3, 0.05), samples(0.300, 5, 4, 0.05), 0.000032);
  EXPECT_EQ(e.verdict, outcome::inconclusive);
  EXPECT_EQ(classify_against({0.3}, {0.3, 0.31}, 0).verdict, outcome::inconclusive);
  EXPECT_EQ(to_json(e)["outcome"], "inconclusive");
}

TEST(Outcome, ARecoveryFromARegressionIsNoWinAgainstTheVersionItCameFrom) {
  const auto v0 = samples(0.300, 200, 11);
  const auto v1 = samples(0.330, 200, 12);  // a regression
  const auto v2 = samples(0.300, 200, 13);  // back to v0's speed
  // The Python toolkit compared with the previous iteration: v2 "positive".
  EXPECT_EQ(classify_against(v2, v1, 0.000032).verdict, outcome::positive);
  // kopt compares a candidate with the best it was built from: v2 against v0 is neutral.
  EXPECT_EQ(classify_against(v2, v0, 0.000032).verdict, outcome::neutral);
}

TEST(Outcome, TheMarginGrowsForKernelsOfAFewTimerSteps) {
  // 0.5 µs median, 32 ns steps: m = 2 * 0.032 / 0.5 = 12.8 %, so 5 % slower is still neutral.
  const auto e = classify_against(samples(0.000525, 400, 5, 0.002), samples(0.0005, 400, 6, 0.002), 0.000032);
  EXPECT_NEAR(e.margin, 0.128, 1e-3);
  EXPECT_EQ(e.verdict, outcome::neutral);
}

TEST(Outcome, NamesRoundTripAndUnknownOnesAreRefused) {
  for (auto o : {outcome::positive, outcome::negative, outcome::neutral, outcome::inconclusive, outcome::rejected}) {
    EXPECT_EQ(parse_outcome(std::string(to_string(o))), o);
  }
  EXPECT_THROW(parse_outcome("better"), error);
}

}  // namespace
}  // namespace kopt::measure
