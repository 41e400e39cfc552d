#include "harness/timing_instruments.h"

#include <string>

#include "core/error.h"
#include "harness/python_reference_job.h"

namespace kopt::harness {

timing_instruments::timing_instruments(const gpu_context& gpu, bool hot) {
  std::string trouble;
  recorder = cuda::activity_recorder::start(&trouble);
  if (recorder == nullptr) throw error(trouble);
  attribution = cuda::launch_attribution::start(&trouble);
  if (attribution == nullptr) throw error(trouble);
  attribution->clear();
  if (!hot) flusher = std::make_unique<l2_flusher>(*gpu.api, static_cast<std::size_t>(gpu.l2_bytes));
}

sampling_options judged_sampling(const bench_job& job, const kernel::kernel_plan& plan) {
  sampling_options judged = sampling_of(job);
  judged.judge_work = true;
  for (const auto& b : plan.buffers) {
    if (b.role != kernel::buffer_role::in) judged.output_bytes += static_cast<std::uint64_t>(b.bytes);
  }
  return judged;
}

}  // namespace kopt::harness
