#pragma once
// What timing the version under test needs, the same for bench's timing and for a comparison's
// blocks: CUPTI's activity records and launch attribution, the L2 flusher of the cold protocol,
// and the sampling options with the judge's rules on.

#include <memory>

#include "cuda/cupti_activity.h"
#include "cuda/launch_attribution.h"
#include "harness/bench_job.h"
#include "harness/gpu_context.h"
#include "harness/l2_flush.h"
#include "harness/sampling.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct timing_instruments {
  cuda::activity_recorder* recorder = nullptr;
  cuda::launch_attribution* attribution = nullptr;
  std::unique_ptr<l2_flusher> flusher;  // null: the hot protocol

  // Throws kopt::error when CUPTI cannot start.
  timing_instruments(const gpu_context& gpu, bool hot);
};

// The job's sampling options, judging every sample (the version under test).
sampling_options judged_sampling(const bench_job& job, const kernel::kernel_plan& plan);

}  // namespace kopt::harness
