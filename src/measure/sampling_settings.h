#pragma once
// How a version is sampled, as a user sets it (--hot, --warmup, --repeat, --min-seconds,
// --max-seconds) and as every job, request and document carries it: one struct, one set of
// defaults, one serializer (its description), one set of limits.

#include <tuple>

#include "core/document.h"
#include "measure/stopping_rule.h"

namespace kopt::measure {

struct sampling_settings {
  bool hot = false;  // warm-cache protocol instead of flushing L2 before every sample
  int warmup = 3;    // calls before sampling, at least
  int repeat = 10;   // samples, at least
  double min_seconds = default_min_sampling_seconds;  // [s] of sampling, at least
  double max_seconds = 10.0;                          // [s] of sampling, at most
  double target_relative_half_width = 0.005;          // the stopping rule's: (ci.high - ci.low) / 2 / median
};
BOOST_DESCRIBE_STRUCT(sampling_settings, (),
                      (hot, warmup, repeat, min_seconds, max_seconds, target_relative_half_width))

// [calls], [samples], [s]: beyond these a run would never end in a working day.
inline constexpr double most_warmup_calls = 1e6;
inline constexpr double most_samples = 1e7;
inline constexpr double most_sampling_seconds = 86400;

}  // namespace kopt::measure

template <>
inline constexpr auto kopt::document_ranges<kopt::measure::sampling_settings> = std::make_tuple(
    kopt::within(&kopt::measure::sampling_settings::warmup, 0, kopt::measure::most_warmup_calls),
    kopt::within(&kopt::measure::sampling_settings::repeat, 1, kopt::measure::most_samples),
    kopt::within(&kopt::measure::sampling_settings::min_seconds, 0, kopt::measure::most_sampling_seconds),
    kopt::within(&kopt::measure::sampling_settings::max_seconds, 0, kopt::measure::most_sampling_seconds),
    kopt::within(&kopt::measure::sampling_settings::target_relative_half_width, 0, 1));
