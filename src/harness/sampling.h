#pragma once
// The timing engine: warm-up, then samples of one call each (fresh inputs and poisoned
// outputs through the caller's hook, flush, call, the GPU's own timestamps of every piece of
// work the call issued) until the stopping rule is met, with the SM clock read through NVML
// every 20 ms. kopt's harness times CUDA kernels and native references with it, and
// libkopt_harness_abi gives the same engine to the Python runner, so kernel and reference are
// always measured the same way.
//
// For the version under test (`judge_work`), the engine also fails the run when the call's
// work escaped the measurement: GPU work launched by another thread outside any solve() call,
// a call that ran no kernel, outputs copied in from the host, activity records CUPTI dropped.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "cuda/cupti_activity.h"
#include "cuda/driver_api.h"
#include "cuda/launch_attribution.h"
#include "harness/call_timer.h"
#include "harness/l2_flush.h"
#include "measure/stopping_rule.h"

namespace kopt::harness {

struct sampling_options {
  int warmup = 3;                  // calls before sampling, at least (then until stable, at most 1 s)
  int repeat = 10;                 // samples, at least
  double min_seconds = measure::default_min_sampling_seconds;  // [s] of sampling, at least
  double max_seconds = 10.0;       // [s] of sampling, at most
  double target_relative_half_width = 0.005;
  bool judge_work = false;         // apply the rules above (the version under test)
  std::uint64_t output_bytes = 0;  // [bytes] of the call's outputs, for the host-copy rule
  // A block of a comparison in turns (timing_blocks.h): exactly `warmup` calls of warm-up and
  // exactly this many samples, whatever the stopping rule would say; 0: the rules above.
  std::size_t exact_samples = 0;
};

// What the caller does around each call, outside the timed region. `before_each(call)` runs
// before the flush (fresh inputs, poison); `after_each(call, sample)` after the call's records
// are read (checks; throws kernel_failure to stop). `wants_more()` is asked when the stopping
// rule is met: true keeps sampling (the checks want more calls). Calls are numbered from 1.
struct sampling_hooks {
  std::function<void(std::uint64_t call)> before_each;
  std::function<void(std::uint64_t call, const call_sample& sample)> after_each;
  std::function<bool()> wants_more;
};

// "hot: ..." or "cold: L2 flushed before every sample by reading 120.00 MiB".
std::string protocol_description(bool hot, std::size_t l2_bytes);

// What sampling saw, before it becomes the timing document.
struct sampling_record {
  std::vector<double> gpu_ms;      // [ms] per sample: span of the call's GPU work
  std::vector<double> kernel_sum_ms;  // [ms] per sample: sum of the call's kernel durations
  std::vector<double> host_ms;     // [ms] per sample, host time of call + synchronisation
  std::vector<double> issue_ms;    // [ms] per sample, host time until solve() returned
  std::vector<double> hold_us;     // [µs] per sample, the launch hold before the call
  int kernels_per_call = 0;
  int memory_ops_per_call = 0;
  std::set<std::string> kernel_names;  // every kernel the sampled calls ran
  int streams = 0;
  int side_streams = 0;            // most streams other than the default in one call
  std::uint64_t persisting_l2_calls = 0;  // calls that left a persisting-L2 limit set
  std::string stop_reason;
  int warmup_calls = 0;
  std::string warmup_end = "stable";  // "stable" or "time_limit" (measure::warmup_state)
  std::map<std::string, double> host_overhead_ms;  // [ms] median of kopt's own host time per call, by step
  json clocks_before = nullptr;    // NVML's reading before sampling, null without NVML
  int sm_mhz_min = 0;              // [MHz] lowest reading after a sample (0: unknown)
  int sm_mhz_max = 0;              // [MHz]
  std::vector<std::size_t> throttled_samples;
  std::vector<std::string> throttle_reasons;
};

// The timing document (the `kernel` and `reference` objects of a bench result): the headline
// estimate (the median, or a trimmed mean for calls under 200 timer steps) with the timer's
// step, the Python toolkit's average/median/min/max_ms plus stdev, p10/p90, the median's 95 %
// interval, the raw samples, the kernels' sum beside the span, the host time, streams, clocks,
// and kopt's own host time per call by step. Pure.
json timing_document(const sampling_record& record);

// The judge's verdict on one sample of the version under test: "" when the call's work was
// all on the GPU and all its own, else the one-line reason ("host thread: ...",
// "work outside kernels: ..."). Pure; tested on its own.
std::string judge_sample(const call_sample& sample, std::uint64_t call, std::uint64_t output_bytes);

// Runs `call` (which launches the work and throws kopt::error on failure) under the protocol
// and returns the timing document. `flusher` null: hot protocol. `attribution` is required
// when `options.judge_work`; null for a trusted reference. A device error while sampling
// throws kopt::error; a judged rule broken throws kernel_failure.
json sample_gpu_time(const cuda::driver_api& api, cuda::activity_recorder& recorder,
                     cuda::launch_attribution* attribution, l2_flusher* flusher,
                     const std::function<void()>& call, const sampling_options& options,
                     const std::string& device_uuid, const sampling_hooks& hooks = {});

}  // namespace kopt::harness
