#pragma once
// When warm-up ends. A fixed count (the Python toolkit's 3) stops too early for kernels whose
// first calls pay for lazy module loading, clock ramp-up or TLB misses, and wastes nothing for
// the rest. kopt warms up for at least `min_calls`, then until the median of the last
// `window` calls is within `tolerance` of the median of the `window` before them, or until
// `max_time` has passed (the reason is reported).

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

namespace kopt::measure {

struct warmup_rule {
  std::size_t min_calls = 3;
  std::size_t window = 5;
  double tolerance = 0.01;                    // relative change of the median
  std::chrono::duration<double> max_time{1.0};
};

enum class warmup_state { warming, stable, time_limit };
BOOST_DESCRIBE_ENUM(warmup_state, warming, stable, time_limit)

std::string_view to_string(warmup_state state);

// `durations` are the warm-up calls' times so far, in order. Pure.
warmup_state warmup_progress(const warmup_rule& rule, const std::vector<double>& durations,
                             std::chrono::duration<double> elapsed);

}  // namespace kopt::measure
