#include "harness/kernel_run.h"

#include <fmt/format.h>

#include "core/phase_clock.h"
#include "core/version.h"
#include "harness/bench_version.h"
#include "harness/buffer_memory.h"
#include "harness/gpu_context.h"
#include "harness/input_generator.h"
#include "harness/job_problem.h"
#include "harness/kernel_protocol.h"
#include "harness/loaded_libraries.h"
#include "harness/seed_inputs.h"

namespace kopt::harness {

json run_kernel_job(const bench_job& job) {
  phase_clock clock;
  // Before the kernel's library is loaded: a compute library it links counts as its own.
  const std::vector<std::string> baseline = loaded_compute_libraries();
  const gpu_context gpu = open_gpu_context();
  const job_problem problem(job);
  const kernel::kernel_plan& plan = problem.plan();
  json result = json{{"kopt_version", version_string}, {"status", "ok"}, {"reason", ""}, {"problem_source", problem.source()}};
  if (!problem.mismatch().empty()) {
    result["status"] = "failed";
    result["reason"] = fmt::format("problem mismatch: {}; the problem belongs to the reference (drop the kernel's "
                                   "annotation or make it declare the same)",
                                   problem.mismatch());
    return result;
  }
  const auto memory = make_device_memory(*gpu.api);
  bench_version version = bind_version(*memory, load_solve(job.kernel_library, "kernel"), plan);
  input_generator generator(*gpu.api, plan.buffers);
  const auto seeds = generated_seed_inputs(generator, plan);
  const protocol_setting setting{job, plan, version, *seeds, &generator, &gpu, baseline};
  if (job.profile_mode) {
    run_profile_window(setting, result);
    return result;
  }
  clock.done("gpu_context_and_loading");
  run_protocol(setting, result, clock);
  result["phases_s"] = clock.phases();
  return result;
}

}  // namespace kopt::harness
