#include "harness/sampling.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "core/text.h"
#include "cuda/nvml_library.h"
#include "harness/call_timer.h"
#include "measure/statistics.h"
#include "measure/stopping_rule.h"

namespace kopt::harness {
namespace {

json clocks_json(const std::optional<cuda::sm_clocks>& clocks) {
  if (!clocks) return nullptr;
  return json{{"sm_mhz", clocks->sm_now_mhz}, {"sm_max_mhz", clocks->sm_max_mhz},
              {"event_reasons", clocks->event_reasons}, {"throttled", clocks->throttled}};
}

// The SM clock as NVML saw it right after each sample: the lowest and highest reading, and
// which samples ran while a throttle reason (power, thermal, ...) was active.
struct clock_watch {
  int min_mhz = 0;   // [MHz]
  int max_mhz = 0;   // [MHz]
  std::vector<std::size_t> throttled_samples;
  std::set<std::string> reasons;

  void add(std::size_t sample, const std::optional<cuda::sm_clocks>& clocks) {
    if (!clocks) return;
    min_mhz = min_mhz == 0 ? clocks->sm_now_mhz : std::min(min_mhz, clocks->sm_now_mhz);
    max_mhz = std::max(max_mhz, clocks->sm_now_mhz);
    if (clocks->throttled) {
      throttled_samples.push_back(sample);
      reasons.insert(clocks->event_reasons);
    }
  }
};

}  // namespace

json sample_gpu_time(const cuda::driver_api& api, cuda::activity_recorder& recorder, l2_flusher* flusher,
                     const std::function<void()>& call, const sampling_options& options,
                     const std::string& device_uuid, const std::function<void()>& before_each) {
  call_timer timer(api, recorder, flusher);
  const auto sample = [&] {
    if (before_each) before_each();
    return timer.time_call(call);
  };
  for (int i = 0; i < options.warmup; ++i) sample();
  const cuda::nvml_library& nvml = cuda::nvml_library::instance();
  const auto clocks_before = nvml.clocks(device_uuid);
  measure::stopping_rule rule;
  rule.min_samples = static_cast<std::size_t>(std::max(options.repeat, 10));
  rule.min_time = std::chrono::duration<double>(options.min_seconds);
  rule.max_time = std::chrono::duration<double>(options.max_seconds);
  rule.target_relative_half_width = options.target_relative_half_width;
  std::vector<double> gpu_ms;
  std::vector<double> host_ms;
  clock_watch watch;
  int kernels = 0;
  int streams = 0;
  const auto started = std::chrono::steady_clock::now();
  measure::stop_reason reason = measure::stop_reason::keep_going;
  while (reason == measure::stop_reason::keep_going) {
    const call_sample s = sample();
    gpu_ms.push_back(s.kernel_ns / 1e6);
    host_ms.push_back(s.host_ns / 1e6);
    kernels = std::max(kernels, s.kernels);
    streams = std::max(streams, s.streams);
    // Read while the GPU is still warm from the sample, outside the timed region.
    watch.add(gpu_ms.size() - 1, nvml.clocks(device_uuid));
    reason = measure::should_stop(rule, gpu_ms, std::chrono::steady_clock::now() - started);
  }
  sampling_record record;
  record.gpu_ms = std::move(gpu_ms);
  record.host_ms = std::move(host_ms);
  record.kernels_per_call = kernels;
  record.streams = streams;
  record.stop_reason = std::string(measure::to_string(reason));
  record.warmup_calls = options.warmup;
  record.clocks_before = clocks_json(clocks_before);
  record.sm_mhz_min = watch.min_mhz;
  record.sm_mhz_max = watch.max_mhz;
  record.throttled_samples = watch.throttled_samples;
  record.throttle_reasons.assign(watch.reasons.begin(), watch.reasons.end());
  return timing_document(record);
}

std::string protocol_description(bool hot, std::size_t l2_bytes) {
  return hot ? "hot: caches as the previous call left them"
             : fmt::format("cold: L2 flushed before every sample by reading {}", format_bytes(2.0 * static_cast<double>(l2_bytes)));
}

json timing_document(const sampling_record& record) {
  const auto g = measure::summarize(record.gpu_ms);
  const auto h = measure::summarize(record.host_ms);
  const json throttling = json{{"samples_throttled", record.throttled_samples.size()},
                               {"throttled_sample_indices", record.throttled_samples},
                               {"reasons", record.throttle_reasons}};
  return json{{"median_ms", g.median},
              {"average_ms", g.mean},
              {"min_ms", g.min},
              {"max_ms", g.max},
              {"stdev_ms", g.stdev},
              {"p10_ms", g.p10},
              {"p90_ms", g.p90},
              {"median_ci95_ms", json::array({g.median_ci95.low, g.median_ci95.high})},
              {"sample_count", g.count},
              {"warmup_calls", record.warmup_calls},
              {"stop_reason", record.stop_reason},
              {"time_source", "GPU: CUPTI kernel activity records, summed over the call's kernels"},
              {"kernels_per_call", record.kernels_per_call},
              {"streams", record.streams},
              {"host_end_to_end_median_ms", h.median},
              {"clocks", json{{"before_sampling", record.clocks_before},
                              {"sm_mhz_min_during_sampling", record.sm_mhz_min},
                              {"sm_mhz_max_during_sampling", record.sm_mhz_max},
                              {"throttling", throttling}}},
              {"samples_ms", record.gpu_ms}};
}

}  // namespace kopt::harness
