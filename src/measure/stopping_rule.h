#pragma once
// When to stop sampling: at least `min_samples` and `min_time`, then as soon as the 95 %
// interval of the median is narrow enough relative to the median, or at `max_time` /
// `max_samples`, whichever comes first. The reason is reported with the result.

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

namespace kopt::measure {

struct stopping_rule {
  std::size_t min_samples = 10;
  std::size_t max_samples = 100000;
  std::chrono::duration<double> min_time{0.5};   // wall time spent sampling
  std::chrono::duration<double> max_time{10.0};
  double target_relative_half_width = 0.005;     // (ci.high - ci.low) / 2 / median
};

enum class stop_reason {
  keep_going,
  converged,        // the median's interval met the target
  time_limit,       // max_time reached first
  sample_limit,     // max_samples reached first
};

std::string_view to_string(stop_reason reason);

// Relative half width of the median's 95 % interval; infinity with fewer than 6 samples.
double relative_median_half_width(const std::vector<double>& samples);

stop_reason should_stop(const stopping_rule& rule, const std::vector<double>& samples,
                        std::chrono::duration<double> elapsed);

// The rule applied as samples arrive. The limits are checked on every sample; the median's
// interval (a sort of all samples) only when the count has grown by 1/16 since the last look,
// so that n samples cost O(n log n) in all rather than O(n^2 log n), at the price of at most
// 1/16 more samples than needed.
class stopping_monitor {
 public:
  explicit stopping_monitor(const stopping_rule& rule) : m_rule(rule) {}

  stop_reason update(const std::vector<double>& samples, std::chrono::duration<double> elapsed);

  // How many times the interval was computed (for tests).
  std::size_t interval_evaluations() const { return m_evaluations; }

 private:
  stopping_rule m_rule;
  std::size_t m_next_look = 0;
  std::size_t m_evaluations = 0;
};

}  // namespace kopt::measure
