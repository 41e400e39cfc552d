#include "measure/stopping_rule.h"

#include <algorithm>
#include <limits>

#include "core/enum_names.h"
#include "measure/statistics.h"

namespace kopt::measure {

std::string_view to_string(stop_reason reason) { return enumerator_name(reason); }

double relative_median_half_width(const std::vector<double>& samples) {
  // Below 6 samples no order-statistic interval reaches 95 % coverage.
  if (samples.size() < 6) return std::numeric_limits<double>::infinity();
  const sample_summary s = summarize(samples);
  if (s.median <= 0) return std::numeric_limits<double>::infinity();
  return (s.median_ci95.high - s.median_ci95.low) / 2.0 / s.median;
}

stop_reason should_stop(const stopping_rule& rule, const std::vector<double>& samples,
                        std::chrono::duration<double> elapsed) {
  if (samples.size() >= rule.max_samples) return stop_reason::sample_limit;
  if (elapsed >= rule.max_time) return stop_reason::time_limit;
  if (samples.size() < rule.min_samples || elapsed < rule.min_time) return stop_reason::keep_going;
  return relative_median_half_width(samples) <= rule.target_relative_half_width ? stop_reason::converged
                                                                                : stop_reason::keep_going;
}

stop_reason stopping_monitor::update(const std::vector<double>& samples, std::chrono::duration<double> elapsed) {
  if (samples.size() >= m_rule.max_samples) return stop_reason::sample_limit;
  if (elapsed >= m_rule.max_time) return stop_reason::time_limit;
  if (samples.size() < m_rule.min_samples || elapsed < m_rule.min_time) return stop_reason::keep_going;
  if (samples.size() < m_next_look) return stop_reason::keep_going;
  ++m_evaluations;
  m_next_look = samples.size() + std::max<std::size_t>(1, samples.size() / 16);
  return should_stop(m_rule, samples, elapsed);
}

}  // namespace kopt::measure
