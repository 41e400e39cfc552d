#pragma once
// Timing documents for tests, made the way sampling makes them (measure::timing_document_of over
// a record of samples), so that every field a reader checks is there and consistent.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "measure/statistics.h"
#include "measure/timing_document.h"

namespace kopt::testing {

// `count` samples around `median_ms` (within ±0.5 %, on a 32 ns timer as on an H200), stopped as
// "converged".
inline measure::timing_document timing_around(double median_ms, std::size_t count = 200) {
  measure::sampling_record record;
  for (std::size_t i = 0; i < count; ++i) {
    const double ns = median_ms * 1e6 * (1.0 + 0.005 * std::sin(1.7 * static_cast<double>(i)));
    record.gpu_ms.push_back(std::round(ns / 32) * 32 / 1e6);
    record.host_ms.push_back(0.3);
  }
  record.kernels_per_call = 1;
  record.streams = 1;
  record.stop_reason = "converged";
  return measure::timing_document_of(record);
}

// A block's timing as a comparison in turns reads it: its samples, their median and the timer's
// step (`tick_ns`, 32 on an H200), the rest left at their defaults.
inline measure::timing_document timing_of_samples(std::vector<double> samples_ms,
                                                  std::uint64_t tick_ns = 32) {
  measure::timing_document t;
  t.sample_count = samples_ms.size();
  t.median_ms = samples_ms.empty() ? 0 : measure::summarize(samples_ms).median;
  t.estimate_ms = t.median_ms;
  t.timer_tick_ns = tick_ns;
  t.samples_ms = std::move(samples_ms);
  return t;
}

}  // namespace kopt::testing
