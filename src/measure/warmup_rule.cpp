#include "measure/warmup_rule.h"

#include <algorithm>
#include <cmath>

#include "core/enum_names.h"
#include "measure/statistics.h"

namespace kopt::measure {
namespace {

double median_of(std::vector<double>::const_iterator first, std::vector<double>::const_iterator last) {
  std::vector<double> part(first, last);
  std::sort(part.begin(), part.end());
  return quantile_of_sorted(part, 0.5);
}

}  // namespace

std::string_view to_string(warmup_state state) { return enumerator_name(state); }

warmup_state warmup_progress(const warmup_rule& rule, const std::vector<double>& durations,
                             std::chrono::duration<double> elapsed) {
  if (durations.size() < rule.min_calls) return warmup_state::warming;
  if (durations.size() >= 2 * rule.window) {
    const auto end = durations.end();
    const auto window = static_cast<std::ptrdiff_t>(rule.window);
    const double last = median_of(end - window, end);
    const double before = median_of(end - 2 * window, end - window);
    if (before > 0 && std::abs(last - before) <= rule.tolerance * before) return warmup_state::stable;
  }
  return elapsed >= rule.max_time ? warmup_state::time_limit : warmup_state::warming;
}

}  // namespace kopt::measure
