#pragma once
// The timing document: what sampling found for one version (the `kernel` and `reference` of a
// bench result, and each block of a comparison in turns). It is made from the raw per-sample
// record in one place (timing_document_of) and crosses processes (the measuring child, the
// Python runner through libkopt_harness_abi) and files in one typed form whose reader checks it.
//
// The headline is `estimate_ms`: the median, or a 20 % trimmed mean for calls under 200 steps
// of the timer (timer_resolution.h), whose median can only move by whole steps.

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"

namespace kopt::measure {

// NVML's reading of the SM clock at one moment.
struct clock_reading {
  int sm_mhz = 0;             // [MHz]
  int sm_max_mhz = 0;         // [MHz]
  std::string event_reasons;  // "sw_power_cap,hw_thermal_slowdown", "" when none
  bool throttled = false;     // a reason other than idle or application settings was active
};
BOOST_DESCRIBE_STRUCT(clock_reading, (), (sm_mhz, sm_max_mhz, event_reasons, throttled))

struct throttling_record {
  std::size_t samples_throttled = 0;
  std::vector<std::size_t> throttled_sample_indices;
  std::vector<std::string> reasons;
};
BOOST_DESCRIBE_STRUCT(throttling_record, (), (samples_throttled, throttled_sample_indices, reasons))

struct clock_record {
  std::optional<clock_reading> before_sampling;  // none without NVML
  int sm_mhz_min_during_sampling = 0;            // [MHz] 0: unknown
  int sm_mhz_max_during_sampling = 0;            // [MHz]
  throttling_record throttling;
};
BOOST_DESCRIBE_STRUCT(clock_record, (),
                      (before_sampling, sm_mhz_min_during_sampling, sm_mhz_max_during_sampling, throttling))

struct timing_document {
  static constexpr std::string_view document_schema = "kopt.timing/v1";
  double estimate_ms = 0;           // [ms] the headline
  std::string estimator;            // "median" or "trimmed_mean_20"
  std::uint64_t timer_tick_ns = 0;  // [ns] the timestamps' step
  double median_ms = 0;             // [ms] the Python toolkit's fields, and spread
  double average_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double stdev_ms = 0;
  double p10_ms = 0;
  double p90_ms = 0;
  std::array<double, 2> median_ci95_ms{};  // [ms]
  std::size_t sample_count = 0;
  int warmup_calls = 0;
  std::string warmup_end;  // "stable" or "time_limit"
  std::map<std::string, double>
      kopt_host_ms_per_call;        // [ms] median of kopt's own host time per call, by step
  std::string stop_reason;          // measure::stop_reason
  std::string time_source;          // what the samples are, in words
  double kernel_sum_median_ms = 0;  // [ms] the kernels' durations summed, beside the span
  int kernels_per_call = 0;
  std::vector<std::string> kernel_names;  // every kernel the sampled calls ran
  int memory_ops_per_call = 0;
  int streams = 0;
  int side_streams = 0;                   // most streams other than the default in one call
  std::uint64_t persisting_l2_calls = 0;  // calls that left a persisting-L2 limit set
  double host_end_to_end_median_ms = 0;   // [ms] the call plus synchronisation, on the host
  double host_issue_median_ms = 0;        // [ms] until solve() returned
  double launch_hold_median_us = 0;       // [µs] the launch hold before the call
  clock_record clocks;
  std::vector<double> samples_ms;  // [ms] every sample, in order

  double headline_ms() const { return estimate_ms; }
};
BOOST_DESCRIBE_STRUCT(timing_document, (),
                      (estimate_ms, estimator, timer_tick_ns, median_ms, average_ms, min_ms, max_ms, stdev_ms,
                       p10_ms, p90_ms, median_ci95_ms, sample_count, warmup_calls, warmup_end,
                       kopt_host_ms_per_call, stop_reason, time_source, kernel_sum_median_ms,
                       kernels_per_call, kernel_names, memory_ops_per_call, streams, side_streams,
                       persisting_l2_calls, host_end_to_end_median_ms, host_issue_median_ms,
                       launch_hold_median_us, clocks, samples_ms))

// What sampling saw, sample by sample, before it becomes the timing document.
struct sampling_record {
  std::vector<double> gpu_ms;         // [ms] per sample: span of the call's GPU work
  std::vector<double> kernel_sum_ms;  // [ms] per sample: sum of the call's kernel durations
  std::vector<double> host_ms;        // [ms] per sample, host time of call + synchronisation
  std::vector<double> issue_ms;       // [ms] per sample, host time until solve() returned
  std::vector<double> hold_us;        // [µs] per sample, the launch hold before the call
  int kernels_per_call = 0;
  int memory_ops_per_call = 0;
  std::set<std::string> kernel_names;
  int streams = 0;
  int side_streams = 0;
  std::uint64_t persisting_l2_calls = 0;
  std::string stop_reason;
  int warmup_calls = 0;
  std::string warmup_end = "stable";
  std::map<std::string, double> host_overhead_ms;  // [ms] median of kopt's own host time per call, by step
  std::optional<clock_reading> clocks_before;
  int sm_mhz_min = 0;  // [MHz] lowest reading after a sample (0: unknown)
  int sm_mhz_max = 0;  // [MHz]
  std::vector<std::size_t> throttled_samples;
  std::vector<std::string> throttle_reasons;
};

// The document of a record: the headline estimate with the timer's step, the summary
// statistics, the median's 95 % interval, the raw samples and the rest as recorded. Pure.
timing_document timing_document_of(const sampling_record& record);

// "3 of 150 kernel samples ran while the GPU reported throttling (sw_power_cap)", or nothing.
std::optional<std::string> throttle_warning(std::string_view who, const timing_document& timing);

}  // namespace kopt::measure
