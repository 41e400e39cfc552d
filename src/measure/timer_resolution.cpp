#include "measure/timer_resolution.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "measure/statistics.h"

namespace kopt::measure {

std::uint64_t timer_tick_ns(const std::vector<std::uint64_t>& durations_ns) {
  std::uint64_t tick = 0;
  for (const std::uint64_t d : durations_ns) tick = std::gcd(tick, d);
  return tick;
}

double trimmed_mean(std::vector<double> samples, double trim) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const auto drop = static_cast<std::size_t>(std::floor(trim * static_cast<double>(samples.size())));
  const auto first = samples.begin() + static_cast<std::ptrdiff_t>(drop);
  const auto last = samples.end() - static_cast<std::ptrdiff_t>(drop);
  return std::accumulate(first, last, 0.0) / static_cast<double>(last - first);
}

headline_estimate headline(const std::vector<double>& samples_ms, std::uint64_t tick_ns) {
  const double median = summarize(samples_ms).median;
  if (tick_ns > 0 && median * 1e6 < fine_ticks * static_cast<double>(tick_ns)) {
    return {trimmed_mean(samples_ms, 0.2), "trimmed_mean_20"};
  }
  return {median, "median"};
}

}  // namespace kopt::measure
