#pragma once
// The timing engine: warm-up, then samples of one call each (flush, call, read the GPU's
// own timestamps) until the stopping rule is met, with the SM clock read through NVML after
// every sample. kopt's harness times CUDA kernels and native references with it, and
// libkopt_harness_abi gives the same engine to the Python runner, so kernel and reference are
// always measured the same way.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "cuda/cupti_activity.h"
#include "cuda/driver_api.h"
#include "harness/l2_flush.h"

namespace kopt::harness {

struct sampling_options {
  int warmup = 3;                  // calls before sampling
  int repeat = 10;                 // samples, at least
  double min_seconds = 0.5;        // [s] of sampling, at least
  double max_seconds = 10.0;       // [s] of sampling, at most
  double target_relative_half_width = 0.005;
};

// "hot: ..." or "cold: L2 flushed before every sample by reading 120.00 MiB".
std::string protocol_description(bool hot, std::size_t l2_bytes);

// What sampling saw, before it becomes the timing document.
struct sampling_record {
  std::vector<double> gpu_ms;      // [ms] per sample, GPU time of the call's kernels
  std::vector<double> host_ms;     // [ms] per sample, host time of call + synchronisation
  int kernels_per_call = 0;
  int streams = 0;
  std::string stop_reason;
  int warmup_calls = 0;
  json clocks_before = nullptr;    // NVML's reading before sampling, null without NVML
  int sm_mhz_min = 0;              // [MHz] lowest reading after a sample (0: unknown)
  int sm_mhz_max = 0;              // [MHz]
  std::vector<std::size_t> throttled_samples;
  std::vector<std::string> throttle_reasons;
};

// The timing document (the `kernel` and `reference` objects of a bench result): the Python
// toolkit's average/median/min/max_ms plus stdev, p10/p90, the median's 95 % interval, the
// raw samples, the host time, streams and clocks. Pure; tested on its own.
json timing_document(const sampling_record& record);

// Runs `call` (which launches the work and throws kopt::error on failure) under the protocol
// and returns the timing document: median/mean/min/max/stdev/p10/p90, the median's 95 %
// interval, raw samples, host end-to-end times, streams, clocks. `flusher` null: hot protocol.
// `before_each`, when set, runs before every call outside the timed region (it restores the
// contents of inout buffers, so that every sample sees the same data). A device error while
// sampling throws kopt::error.
json sample_gpu_time(const cuda::driver_api& api, cuda::activity_recorder& recorder, l2_flusher* flusher,
                     const std::function<void()>& call, const sampling_options& options,
                     const std::string& device_uuid, const std::function<void()>& before_each = {});

}  // namespace kopt::harness
