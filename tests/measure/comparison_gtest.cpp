#include "measure/comparison.h"

#include <random>

#include <gtest/gtest.h>

namespace kopt::measure {
namespace {

// Expected values from scipy.stats.mannwhitneyu(a, b, method="asymptotic", use_continuity=True).
TEST(Comparison, MannWhitneyMatchesScipy) {
  const auto separated = mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_DOUBLE_EQ(separated.u, 0);
  EXPECT_NEAR(separated.p_value, 0.012185780355344813, 1e-12);
  const auto tied = mann_whitney_u({1, 2, 2, 3, 3, 3}, {2, 3, 4, 4, 5});
  EXPECT_DOUBLE_EQ(tied.u, 5.5);
  EXPECT_NEAR(tied.p_value, 0.08871369199677616, 1e-12);
}

TEST(Comparison, AllEqualValuesAreNoEvidence) {
  const auto r = mann_whitney_u({3, 3, 3}, {3, 3, 3});
  EXPECT_DOUBLE_EQ(r.p_value, 1);
}

std::vector<double> noisy(double center, double relative_noise, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::normal_distribution<double> noise(0.0, relative_noise * center);
  std::vector<double> samples(n);
  for (auto& x : samples) x = center + noise(generator);
  return samples;
}

TEST(Comparison, SameKernelTwiceIsSame) {
  // The Python toolkit called an unchanged kernel "positive" half the time.
  const auto a = noisy(100, 0.01, 200, 1);
  const auto b = noisy(100, 0.01, 200, 2);
  const comparison c = compare_samples(a, b);
  EXPECT_EQ(c.outcome, verdict::same);
  EXPECT_NEAR(c.median_ratio, 1.0, 0.01);
  EXPECT_LT(c.ratio_ci95.low, 1.0);
  EXPECT_GT(c.ratio_ci95.high, 1.0);
}

TEST(Comparison, TenPercentFasterIsFaster) {
  const comparison c = compare_samples(noisy(100, 0.01, 50, 3), noisy(90, 0.01, 50, 4));
  EXPECT_EQ(c.outcome, verdict::faster);
  EXPECT_EQ(c.reason, "significant");
  EXPECT_NEAR(c.median_ratio, 0.9, 0.01);
  EXPECT_LT(c.ratio_ci95.high, 1.0);
  EXPECT_EQ(compare_samples(noisy(90, 0.01, 50, 4), noisy(100, 0.01, 50, 3)).outcome, verdict::slower);
}

TEST(Comparison, TinyButSignificantShiftIsSame) {
  const comparison c = compare_samples(noisy(100, 0.001, 2000, 5), noisy(99.7, 0.001, 2000, 6));
  EXPECT_LT(c.test.p_value, 1e-6);
  EXPECT_EQ(c.outcome, verdict::same);
  EXPECT_EQ(c.reason, "below minimum effect");
}

TEST(Comparison, BootstrapIsDeterministic) {
  const auto a = noisy(100, 0.05, 30, 7);
  const auto b = noisy(95, 0.05, 30, 8);
  const interval first = bootstrap_median_ratio(a, b);
  const interval second = bootstrap_median_ratio(a, b);
  EXPECT_DOUBLE_EQ(first.low, second.low);
  EXPECT_DOUBLE_EQ(first.high, second.high);
  EXPECT_LT(first.low, first.high);
}

TEST(Comparison, TooFewSamples) {
  EXPECT_EQ(compare_samples({1}, {2, 3}).reason, "too few samples");
}

}  // namespace
}  // namespace kopt::measure
