#pragma once
// Summary statistics of timing samples: what a result table, the timing document and the
// comparisons are computed from.

#include <cstddef>
#include <vector>

namespace kopt::measure {

struct interval {
  double low = 0;
  double high = 0;
};

struct sample_summary {
  std::size_t count = 0;
  double median = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  double stdev = 0;             // sample standard deviation (n - 1)
  double p10 = 0;
  double p90 = 0;
  interval median_ci95;         // distribution-free, from order statistics
  double median_ci95_coverage = 0;  // exact coverage of that interval (>= 0.95 when n >= 6)
  double relative_stderr = 0;   // stdev / sqrt(n) / mean
};

// Linear interpolation between order statistics (the numpy default); q in [0, 1].
// `sorted` must be sorted ascending and non-empty.
double quantile_of_sorted(const std::vector<double>& sorted, double q);

// The 1-based ranks (l, n + 1 - l) of the order statistics bracketing the median with at
// least `confidence` coverage under Binomial(n, 1/2); l is 1 when n is too small, in which
// case the interval is [min, max] and its coverage below `confidence`.
struct median_ci_ranks {
  std::size_t lower_rank = 1;
  std::size_t upper_rank = 1;
  double coverage = 0;
};
median_ci_ranks median_confidence_ranks(std::size_t n, double confidence = 0.95);

// Summary of `samples` (any order); an empty input gives a zero summary.
sample_summary summarize(std::vector<double> samples);

}  // namespace kopt::measure
