#include "measure/statistics.h"

#include <cmath>

#include <gtest/gtest.h>

namespace kopt::measure {
namespace {

TEST(Statistics, SummaryOfOneToTen) {
  const sample_summary s = summarize({7, 3, 10, 1, 5, 2, 9, 4, 8, 6});
  EXPECT_EQ(s.count, 10u);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_NEAR(s.stdev, 3.0276503540974917, 1e-12);
  EXPECT_NEAR(s.p10, 1.9, 1e-12);   // numpy.percentile(range(1, 11), 10)
  EXPECT_NEAR(s.p90, 9.1, 1e-12);
  // Binomial(10, 1/2): ranks 2 and 9 cover the median with 1 - 2 * 11/1024.
  EXPECT_DOUBLE_EQ(s.median_ci95.low, 2);
  EXPECT_DOUBLE_EQ(s.median_ci95.high, 9);
  EXPECT_DOUBLE_EQ(s.median_ci95_coverage, 1.0 - 2.0 * 11.0 / 1024.0);
  EXPECT_NEAR(s.relative_stderr, 3.0276503540974917 / std::sqrt(10.0) / 5.5, 1e-12);
}

TEST(Statistics, MedianIsNotTheMean) {
  // The Python toolkit reported a "median" equal to the mean; a skewed sample tells them apart.
  const sample_summary s = summarize({1, 1, 1, 1, 100});
  EXPECT_DOUBLE_EQ(s.median, 1);
  EXPECT_DOUBLE_EQ(s.mean, 20.8);
}

TEST(Statistics, MedianConfidenceRanksMatchTables) {
  EXPECT_EQ(median_confidence_ranks(100).lower_rank, 40u);
  EXPECT_EQ(median_confidence_ranks(100).upper_rank, 61u);
  EXPECT_EQ(median_confidence_ranks(20).lower_rank, 6u);
  EXPECT_EQ(median_confidence_ranks(20).upper_rank, 15u);
  EXPECT_EQ(median_confidence_ranks(1000).lower_rank, 469u);
  EXPECT_EQ(median_confidence_ranks(1000).upper_rank, 532u);
  // Too few samples for 95 %: the whole range, with its (lower) coverage stated.
  const median_ci_ranks five = median_confidence_ranks(5);
  EXPECT_EQ(five.lower_rank, 1u);
  EXPECT_EQ(five.upper_rank, 5u);
  EXPECT_DOUBLE_EQ(five.coverage, 0.9375);
}

TEST(Statistics, SingleAndEmptySamples) {
  const sample_summary one = summarize({4.2});
  EXPECT_DOUBLE_EQ(one.median, 4.2);
  EXPECT_DOUBLE_EQ(one.stdev, 0);
  EXPECT_DOUBLE_EQ(one.median_ci95.low, 4.2);
  EXPECT_EQ(summarize({}).count, 0u);
}

TEST(Statistics, QuantileInterpolatesLinearly) {
  const std::vector<double> sorted = {10, 20, 30, 40};
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0), 10);
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 1), 40);
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.5), 25);
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.25), 17.5);
}

}  // namespace
}  // namespace kopt::measure
