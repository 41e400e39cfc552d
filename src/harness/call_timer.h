#pragma once
// One timing sample of one solve() call: the GPU time of every kernel it launched (summed,
// any stream), the span from the first start to the last end, and the host's end-to-end
// time of the call including the device synchronisation, labelled apart.

#include <cstdint>
#include <functional>

#include "cuda/cupti_activity.h"
#include "cuda/driver_api.h"
#include "harness/l2_flush.h"

namespace kopt::harness {

struct call_sample {
  double kernel_ns = 0;       // [ns] sum of the call's kernel durations (device timestamps)
  double span_ns = 0;         // [ns] first start to last end of the call's GPU work
  double memory_ops_ns = 0;   // [ns] memcpy and memset work inside the call
  double host_ns = 0;         // [ns] host time of call + cuCtxSynchronize
  int kernels = 0;
  int memory_ops = 0;
  int streams = 0;            // distinct streams the call's work ran on
};

class call_timer {
 public:
  // `flusher` null: the hot protocol (caches as the previous run left them).
  call_timer(const cuda::driver_api& api, cuda::activity_recorder& recorder, l2_flusher* flusher);

  // Flushes (cold protocol), runs `call`, synchronises, and reads the call's records.
  // Throws kopt::error when the device reports an error (a faulting kernel).
  call_sample time_call(const std::function<void()>& call);

 private:
  void synchronize(const char* when);

  const cuda::driver_api& m_api;
  cuda::activity_recorder& m_recorder;
  l2_flusher* m_flusher;
};

}  // namespace kopt::harness
