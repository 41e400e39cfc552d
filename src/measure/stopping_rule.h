#pragma once
// When to stop sampling: at least `min_samples` and `min_time`, then as soon as the 95 %
// interval of the median is narrow enough relative to the median, or at `max_time` /
// `max_samples`, whichever comes first. The reason is reported with the result.

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

namespace kopt::measure {

// [s] of sampling before the interval may end it. The interval is what bounds a median's error;
// the floor only keeps a run from ending on its first few samples. Measured on an H200
// (benchmarks/results/2026-12-03-h200-sampling-floor.md): with 0.1 s instead of nvbench's 0.5 s
// the medians of five runs moved by at most 0.17 % and varied by at most 0.34 % (CV) for
// kernels of 8 us to 356 us, while a bench took 0.4-0.8 s less. --min-seconds 0.5 restores
// nvbench's floor.
inline constexpr double default_min_sampling_seconds = 0.1;

struct stopping_rule {
  std::size_t min_samples = 10;
  std::size_t max_samples = 100000;
  std::chrono::duration<double> min_time{default_min_sampling_seconds};  // wall time spent sampling
  std::chrono::duration<double> max_time{10.0};
  double target_relative_half_width = 0.005;     // (ci.high - ci.low) / 2 / median
};

enum class stop_reason {
  keep_going,
  converged,        // the median's interval met the target
  time_limit,       // max_time reached first
  sample_limit,     // max_samples reached first
};
BOOST_DESCRIBE_ENUM(stop_reason, keep_going, converged, time_limit, sample_limit)

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
