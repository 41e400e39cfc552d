#include "measure/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <boost/math/distributions/binomial.hpp>

namespace kopt::measure {

double quantile_of_sorted(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

namespace {

// P(B = i) for B ~ Binomial(n, 1/2). Boost.Math's, not std::lgamma's logarithms: lgamma writes
// the global signgam, and the candidates of a round on several GPUs are summarized on their own
// threads.
double binomial_half_pmf(std::size_t n, std::size_t i) {
  return boost::math::pdf(boost::math::binomial_distribution<double>(static_cast<double>(n), 0.5),
                          static_cast<double>(i));
}

}  // namespace

median_ci_ranks median_confidence_ranks(std::size_t n, double confidence) {
  median_ci_ranks ranks;
  if (n == 0) return ranks;
  const double tail = (1.0 - confidence) / 2.0;
  // The largest l with P(B <= l - 1) <= tail; the interval [x_(l), x_(n+1-l)] then covers the
  // median with probability 1 - 2 P(B <= l - 1). The distribution function is accumulated in
  // one pass: the stopping rule asks this after every few samples, so it must stay linear.
  std::size_t lower = 1;
  double below = binomial_half_pmf(n, 0);  // P(B <= lower - 1)
  while (lower + 1 <= (n + 1) / 2) {
    const double next = below + binomial_half_pmf(n, lower);
    if (next > tail) break;
    below = next;
    ++lower;
  }
  ranks.lower_rank = lower;
  ranks.upper_rank = n + 1 - lower;
  ranks.coverage = 1.0 - 2.0 * std::min(below, 0.5);
  return ranks;
}

sample_summary summarize(std::vector<double> samples) {
  sample_summary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const auto n = samples.size();
  s.count = n;
  s.min = samples.front();
  s.max = samples.back();
  s.median = quantile_of_sorted(samples, 0.5);
  s.p10 = quantile_of_sorted(samples, 0.1);
  s.p90 = quantile_of_sorted(samples, 0.9);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  if (n > 1) {
    double squares = 0;
    for (const double x : samples) squares += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(squares / static_cast<double>(n - 1));
  }
  s.relative_stderr = s.mean != 0 ? s.stdev / std::sqrt(static_cast<double>(n)) / s.mean : 0;
  const median_ci_ranks ranks = median_confidence_ranks(n);
  s.median_ci95 = {samples[ranks.lower_rank - 1], samples[ranks.upper_rank - 1]};
  s.median_ci95_coverage = ranks.coverage;
  return s;
}

}  // namespace kopt::measure
