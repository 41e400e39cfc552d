#include "measure/placement_interval.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <boost/math/distributions/students_t.hpp>

namespace kopt::measure {
namespace {

bool placements_said(const std::vector<paired_round>& rounds) {
  return std::all_of(rounds.begin(), rounds.end(), [](const paired_round& r) {
    return r.candidate_placement >= 0 && r.incumbent_placement >= 0;
  });
}

}  // namespace

std::optional<interval> placement_interval(const std::vector<paired_round>& rounds) {
  if (!placements_said(rounds)) return std::nullopt;
  std::map<std::pair<int, int>, std::pair<double, int>>
      log_sums;  // pair of sets -> (sum of log ratios, rounds)
  for (const paired_round& r : rounds) {
    if (!(r.ratio > 0)) continue;
    auto& [sum, count] = log_sums[{r.candidate_placement, r.incumbent_placement}];
    sum += std::log(r.ratio);
    ++count;
  }
  if (log_sums.size() < 2) return std::nullopt;
  std::vector<double> pair_means;
  for (const auto& [pair, value] : log_sums) pair_means.push_back(value.first / value.second);
  const sample_summary s = summarize(pair_means);
  const double pairs = static_cast<double>(s.count);
  const double half_width =
      boost::math::quantile(boost::math::students_t(pairs - 1), 0.975) * s.stdev / std::sqrt(pairs);
  return interval{std::exp(s.mean - half_width), std::exp(s.mean + half_width)};
}

}  // namespace kopt::measure
