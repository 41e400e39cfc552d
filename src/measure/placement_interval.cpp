#include "measure/placement_interval.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <boost/math/distributions/students_t.hpp>

namespace kopt::measure {

bool placements_said(const std::vector<paired_round>& rounds) {
  return std::all_of(rounds.begin(), rounds.end(), [](const paired_round& r) {
    return r.candidate_placement >= 0 && r.incumbent_placement >= 0;
  });
}

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
  const auto pairs = static_cast<double>(log_sums.size());
  if (log_sums.size() < 2) return std::nullopt;
  double mean = 0;
  for (const auto& [pair, value] : log_sums) mean += value.first / value.second / pairs;
  double squares = 0;
  for (const auto& [pair, value] : log_sums) squares += std::pow(value.first / value.second - mean, 2);
  const double standard_error = std::sqrt(squares / (pairs - 1) / pairs);
  const double t = boost::math::quantile(boost::math::students_t(pairs - 1), 0.975);
  return interval{std::exp(mean - t * standard_error), std::exp(mean + t * standard_error)};
}

}  // namespace kopt::measure
