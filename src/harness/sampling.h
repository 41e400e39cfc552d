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
// a call that ran no kernel, outputs copied in from the host, activity records CUPTI dropped,
// work a call left running past kopt's synchronisation (found when its records come in later,
// or when solve() returns with another CUDA context current).

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
#include "measure/sampling_settings.h"
#include "measure/stopping_rule.h"
#include "measure/timing_document.h"

namespace kopt::harness {

// The settings (warm-up: at least `warmup` calls, then until stable, at most 1 s; `hot` is the
// caller's: it gives no flusher) and how the engine runs with them.
struct sampling_options : measure::sampling_settings {
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

// The judge's verdict on one sample of the version under test: "" when the call's work was
// all on the GPU and all its own, else the one-line reason ("host thread: ...",
// "work in flight: ...", "work outside kernels: ..."). Pure; tested on its own.
std::string judge_sample(const call_sample& sample, std::uint64_t call, std::uint64_t output_bytes);

// Runs `call` (which launches the work and throws kopt::error on failure) under the protocol
// and returns its timing document. `flusher` null: hot protocol. `attribution` is required
// when `options.judge_work`; null for a trusted reference. A device error while sampling
// throws kopt::error; a judged rule broken throws kernel_failure.
measure::timing_document sample_gpu_time(const cuda::driver_api& api, cuda::activity_recorder& recorder,
                     cuda::launch_attribution* attribution, l2_flusher* flusher,
                     const std::function<void()>& call, const sampling_options& options,
                     const std::string& device_uuid, const sampling_hooks& hooks = {});

}  // namespace kopt::harness
