#include "measure/timer_resolution.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "measure/statistics.h"

namespace kopt::measure {

namespace {

constexpr std::uint64_t largest_step_ns = 1024;
// Within 1 ns of a multiple of a step under 8 is 3 durations in 8 by chance alone: too likely
// to prove a step.
constexpr std::uint64_t smallest_step_ns = 8;
constexpr std::size_t fewest_for_a_step = 10;
constexpr std::size_t durations_looked_at = 2000;
constexpr double share_on_the_step = 0.9;

// Whether `step` explains the durations: nearly all within 1 ns of one of its multiples, and
// those multiples at least three different ones (a single repeated duration proves nothing).
bool explains(std::uint64_t step, const std::vector<std::uint64_t>& durations) {
  std::size_t near = 0;
  std::uint64_t lowest = ~std::uint64_t{0};
  std::uint64_t highest = 0;
  for (const std::uint64_t d : durations) {
    const std::uint64_t multiple = (d + step / 2) / step;
    const std::uint64_t on_step = multiple * step;
    if ((on_step > d ? on_step - d : d - on_step) > 1) continue;
    ++near;
    lowest = std::min(lowest, multiple);
    highest = std::max(highest, multiple);
  }
  return highest >= lowest + 2 &&
         static_cast<double>(near) >= share_on_the_step * static_cast<double>(durations.size());
}

}  // namespace

std::uint64_t timer_tick_ns(const std::vector<std::uint64_t>& durations_ns) {
  std::uint64_t tick = 0;
  for (const std::uint64_t d : durations_ns) tick = std::gcd(tick, d);
  if (tick > 2 || durations_ns.size() < fewest_for_a_step) return tick;
  // Seen on an H200: spans of 4735, 4609 and 4607 ns among multiples of 32 (a nanosecond of
  // rounding in CUPTI's conversion). They make the common divisor 1 although the timer steps by
  // 32: look for the largest step nearly all durations sit on instead.
  const std::vector<std::uint64_t> looked_at(
      durations_ns.begin(), durations_ns.begin() + static_cast<std::ptrdiff_t>(std::min(durations_ns.size(), durations_looked_at)));
  for (std::uint64_t step = largest_step_ns; step >= smallest_step_ns; --step) {
    if (explains(step, looked_at)) return step;
  }
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
