#pragma once
// One timing sample of one solve() call: every piece of GPU work the call issued (kernels,
// copies, memsets, on any stream), matched to the call by CUPTI correlation ids rather than
// by a time window; the span from its first start to its last end (the headline), the sums
// of its parts, and the host's end-to-end time of the call, labelled apart. After the call,
// persisting-L2 state is reset so that nothing a kernel pinned survives into the next sample.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cuda/cupti_activity.h"
#include "cuda/driver_api.h"
#include "cuda/launch_attribution.h"
#include "harness/l2_flush.h"
#include "harness/launch_hold.h"
#include "harness/work_attribution.h"

namespace kopt::harness {

struct call_sample : call_work {
  double host_ns = 0;              // [ns] host time of call + cuCtxSynchronize
  std::uint64_t persisting_l2_bytes = 0;  // [bytes] persisting-L2 limit the call left set (then reset)
  int side_streams = 0;            // streams of the call's work other than the default stream
  // [ns] host time of kopt's own steps around the call, reported so that the judge's cost on
  // bench's wall time can be seen part by part.
  double flush_host_ns = 0;        // flush and the synchronisation after it
  double read_records_host_ns = 0; // reading and attributing the activity records (before + after)
  double l2_reset_host_ns = 0;     // persisting-L2 check and reset
  double issue_host_ns = 0;        // [ns] host time until solve() returned (issuing its work)
  double hold_ns = 0;              // [ns] launch hold enqueued before the call
  // solve() returned with another CUDA context current on kopt's thread; kopt set its own back
  // before synchronising (work left in that other context would have escaped the wait).
  bool left_other_context = false;
};

class call_timer {
 public:
  // `flusher` null: the hot protocol (no flush before the call). `attribution` null: no API
  // calls are watched (a trusted reference), and all the work recorded in the call's window
  // is the call's.
  call_timer(const cuda::driver_api& api, cuda::activity_recorder& recorder,
             cuda::launch_attribution* attribution, l2_flusher* flusher);

  // Flushes (cold protocol), holds the default stream (launch_hold) for a little longer than
  // the previous call took to issue its work, runs `call` inside window `call_index` (> 0),
  // synchronises, reads the records and resets persisting L2. Foreign work found before or after the call is in
  // the sample's `foreign`; work of an earlier call that finished only now, in its `late`.
  // Throws kopt::error when the device reports an error.
  call_sample time_call(const std::function<void()>& call, std::uint64_t call_index);

  // Clears a persisting-L2 limit and the lines pinned under it; returns the limit found [bytes]
  // (0: none was set). Called after every call, and once before the first (the context can
  // start with a limit set, which is not the call's doing).
  std::uint64_t clear_persisting_l2();

  // Waits `settle` for work that something launches late, or that a call left running, then
  // reports it (`foreign`, `late`): the last look at the end of a run.
  call_work work_after_settling(std::chrono::milliseconds settle);

 private:
  void synchronize(const char* when);
  std::optional<cuda::api_origin> origin(std::uint32_t correlation) const;

  const cuda::driver_api& m_api;
  cuda::activity_recorder& m_recorder;
  cuda::launch_attribution* m_attribution;
  l2_flusher* m_flusher;
  launch_hold m_hold;
  std::chrono::nanoseconds m_next_hold{0};
  std::uint32_t m_default_stream = no_stream;  // learnt from kopt's own work on the null stream
};

}  // namespace kopt::harness
