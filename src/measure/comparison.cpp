#include "measure/comparison.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/enum_names.h"

namespace kopt::measure {

mann_whitney_result mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  mann_whitney_result result;
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  if (a.empty() || b.empty()) return result;

  // Rank the pooled samples; ties get the average of the ranks they span.
  std::vector<std::pair<double, bool>> pooled;  // (value, from a)
  pooled.reserve(a.size() + b.size());
  for (const double x : a) pooled.emplace_back(x, true);
  for (const double x : b) pooled.emplace_back(x, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  double rank_sum_a = 0;
  double tie_term = 0;  // sum of t^3 - t over tie groups
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double average_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_a += average_rank;
    }
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  result.u = rank_sum_a - n1 * (n1 + 1.0) / 2.0;
  const double n = n1 + n2;
  const double mean = n1 * n2 / 2.0;
  const double variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
  if (variance <= 0) return result;  // every value equal: no evidence of a difference
  const double deviation = result.u - mean;
  const double corrected = std::max(std::fabs(deviation) - 0.5, 0.0);
  result.z = std::copysign(corrected / std::sqrt(variance), deviation);
  result.p_value = std::erfc(std::fabs(result.z) / std::sqrt(2.0));
  return result;
}

namespace {

double median_of(std::vector<double>& values) {
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
  return (lower + upper) / 2.0;
}

}  // namespace

interval bootstrap_median_ratio(const std::vector<double>& a, const std::vector<double>& b, int resamples,
                                std::uint64_t seed, double confidence) {
  if (a.empty() || b.empty() || resamples < 1) return {};
  std::mt19937_64 generator(seed);
  std::uniform_int_distribution<std::size_t> pick_a(0, a.size() - 1);
  std::uniform_int_distribution<std::size_t> pick_b(0, b.size() - 1);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(resamples));
  std::vector<double> resample_a(a.size());
  std::vector<double> resample_b(b.size());
  for (int r = 0; r < resamples; ++r) {
    for (auto& x : resample_a) x = a[pick_a(generator)];
    for (auto& x : resample_b) x = b[pick_b(generator)];
    const double median_a = median_of(resample_a);
    if (median_a != 0) ratios.push_back(median_of(resample_b) / median_a);
  }
  if (ratios.empty()) return {};
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1.0 - confidence) / 2.0;
  return {quantile_of_sorted(ratios, tail), quantile_of_sorted(ratios, 1.0 - tail)};
}

std::string_view to_string(verdict v) { return enumerator_name(v); }

comparison compare_samples(const std::vector<double>& a, const std::vector<double>& b,
                           const comparison_rule& rule) {
  comparison c;
  if (a.size() < 2 || b.size() < 2) {
    c.reason = "too few samples";
    return c;
  }
  const double median_a = summarize(a).median;
  c.median_ratio = median_a != 0 ? summarize(b).median / median_a : 1.0;
  c.ratio_ci95 = bootstrap_median_ratio(a, b);
  c.test = mann_whitney_u(a, b);
  if (c.test.p_value >= rule.alpha) {
    c.reason = "not significant";
  } else if (std::fabs(c.median_ratio - 1.0) < rule.min_effect) {
    c.reason = "below minimum effect";
  } else {
    c.reason = "significant";
    c.outcome = c.median_ratio < 1.0 ? verdict::faster : verdict::slower;
  }
  return c;
}

comparison_record record_of(const comparison& c) {
  return comparison_record{c.outcome, std::string(c.reason), c.median_ratio, {c.ratio_ci95.low, c.ratio_ci95.high}, c.test};
}

}  // namespace kopt::measure
