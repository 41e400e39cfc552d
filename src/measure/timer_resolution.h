#pragma once
// What the GPU timer can resolve, and the estimate that follows from it. CUPTI's timestamps on
// an H200 come in 32 ns steps, so a kernel of a few microseconds takes only a handful of
// distinct durations: its median jumps by whole steps and its spread reads as "0.00 % CV".
// kopt measures the step from the samples themselves and, for calls shorter than
// `fine_ticks` steps, reports a trimmed mean (which averages over the steps) as the headline.

#include <cstdint>
#include <string>
#include <vector>

namespace kopt::measure {

// The timer's step [ns]: the greatest common divisor of the integer durations seen (0 when no
// duration is positive). Durations measured with a 32 ns clock are all multiples of 32; with
// ten or more of them a larger common divisor is unlikely (2^-10 for 64). Where a nanosecond of
// rounding on some durations brings the divisor down to 1 or 2, it is the largest step from 8
// to 1024 ns that at least 90 % of ten or more durations sit on within 1 ns (spanning at least
// three of its multiples).
std::uint64_t timer_tick_ns(const std::vector<std::uint64_t>& durations_ns);

// Below this many ticks a median is visibly quantized.
inline constexpr double fine_ticks = 200;

// The mean of the samples after dropping `trim` of them at each end (by value); any order.
// `trim` in [0, 0.5); an empty input gives 0.
double trimmed_mean(std::vector<double> samples, double trim);

struct headline_estimate {
  double value_ms = 0;
  std::string estimator;  // "median" or "trimmed_mean_20"
};

// The median, or, when the median is shorter than `fine_ticks` ticks, the 20 % trimmed mean
// (robust to the odd slow sample like the median, but not stuck on the timer's steps).
headline_estimate headline(const std::vector<double>& samples_ms, std::uint64_t tick_ns);

}  // namespace kopt::measure
