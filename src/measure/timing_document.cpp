#include "measure/timing_document.h"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "measure/statistics.h"
#include "measure/timer_resolution.h"

namespace kopt::measure {
namespace {

double median_or_zero(const std::vector<double>& values) {
  return values.empty() ? 0 : summarize(values).median;
}

constexpr const char* span_time_source =
    "GPU: CUPTI activity records of every kernel, copy and memset the call issued (matched by correlation "
    "id), from "
    "the first start to the last end; the call's launches queued behind a short hold so that they run back "
    "to back, "
    "as in a program whose host runs ahead";

}  // namespace

timing_document timing_document_of(const sampling_record& record) {
  const sample_summary g = summarize(record.gpu_ms);
  // The spans are whole nanoseconds from CUPTI; rounding undoes the conversion to ms.
  std::vector<std::uint64_t> span_ns;
  for (const double ms : record.gpu_ms) span_ns.push_back(static_cast<std::uint64_t>(std::llround(ms * 1e6)));
  const std::uint64_t tick = timer_tick_ns(span_ns);
  const headline_estimate estimate = headline(record.gpu_ms, tick);
  timing_document d;
  d.estimate_ms = estimate.value_ms;
  d.estimator = estimate.estimator;
  d.timer_tick_ns = tick;
  d.median_ms = g.median;
  d.average_ms = g.mean;
  d.min_ms = g.min;
  d.max_ms = g.max;
  d.stdev_ms = g.stdev;
  d.p10_ms = g.p10;
  d.p90_ms = g.p90;
  d.median_ci95_ms = {g.median_ci95.low, g.median_ci95.high};
  d.sample_count = g.count;
  d.warmup_calls = record.warmup_calls;
  d.warmup_end = record.warmup_end;
  d.kopt_host_ms_per_call = record.host_overhead_ms;
  d.stop_reason = record.stop_reason;
  d.time_source = span_time_source;
  d.kernel_sum_median_ms = median_or_zero(record.kernel_sum_ms);
  d.kernels_per_call = record.kernels_per_call;
  d.kernel_names.assign(record.kernel_names.begin(), record.kernel_names.end());
  d.memory_ops_per_call = record.memory_ops_per_call;
  d.streams = record.streams;
  d.side_streams = record.side_streams;
  d.persisting_l2_calls = record.persisting_l2_calls;
  d.host_end_to_end_median_ms = median_or_zero(record.host_ms);
  d.host_issue_median_ms = median_or_zero(record.issue_ms);
  d.launch_hold_median_us = median_or_zero(record.hold_us);
  d.clocks.before_sampling = record.clocks_before;
  d.clocks.sm_mhz_min_during_sampling = record.sm_mhz_min;
  d.clocks.sm_mhz_max_during_sampling = record.sm_mhz_max;
  d.clocks.throttling = {record.throttled_samples.size(), record.throttled_samples, record.throttle_reasons};
  d.samples_ms = record.gpu_ms;
  return d;
}

// Samples taken while NVML reported a throttle reason (power, thermal, ...) ran slower than the
// card can.
std::optional<std::string> throttle_warning(std::string_view who, const timing_document& timing) {
  const throttling_record& t = timing.clocks.throttling;
  if (t.samples_throttled == 0) return std::nullopt;
  return fmt::format("{} of {} {} samples ran while the GPU reported throttling ({})", t.samples_throttled,
                     timing.sample_count, who, fmt::join(t.reasons, "; "));
}

}  // namespace kopt::measure
