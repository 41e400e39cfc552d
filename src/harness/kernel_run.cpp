#include "harness/kernel_run.h"

#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/phase_clock.h"
#include "harness/bench_version.h"
#include "harness/buffer_memory.h"
#include "harness/gpu_context.h"
#include "harness/elf_functions.h"
#include "harness/input_generator.h"
#include "harness/job_problem.h"
#include "harness/kernel_protocol.h"
#include "harness/kernel_sources.h"
#include "harness/loaded_libraries.h"
#include "harness/seed_inputs.h"
#include "harness/timing_blocks.h"

namespace kopt::harness {

child_report run_kernel_job(const bench_job& job, block_channel* channel) {
  phase_clock clock;
  // Before the kernel's library is loaded: a compute library it links counts as its own.
  const std::vector<std::string> baseline = loaded_compute_libraries();
  const gpu_context gpu = open_gpu_context();
  const job_problem problem(job);
  const kernel::kernel_plan& plan = problem.plan();
  child_report result = report_of(run_status::ok);
  result.problem_source = problem.source();
  if (!problem.mismatch().empty()) {
    result.status = run_status::failed;
    result.reason = fmt::format("problem mismatch: {}; the problem belongs to the reference (drop the kernel's "
                                "annotation or make it declare the same)",
                                problem.mismatch());
    return result;
  }
  const auto memory = make_device_memory(*gpu.api);
  void* const solve = load_solve(job.kernel_library, "kernel");
  bench_version version = bind_version(*memory, solve, plan);
  input_generator generator(*gpu.api, plan.buffers);
  const auto seeds = generated_seed_inputs(generator, plan);
  if (job.kind == job_kind::blocks) {
    if (channel == nullptr) throw error("a job timed in blocks needs the parent's channel");
    // The same solve() bound to more sets of buffers, allocated side by side (timing_blocks.h).
    std::vector<bench_version> more;
    for (int i = 1; i < placements_for(plan); ++i) more.push_back(bind_version(*memory, solve, plan));
    turn_setting turns{job, plan, {&version}, *seeds, generator, gpu, baseline};
    for (bench_version& v : more) turns.placements.push_back(&v);
    run_timing_blocks(turns, result, *channel);
    return result;
  }
  const protocol_setting setting{job, plan, version, *seeds, &generator, &gpu, baseline};
  if (job.kind == job_kind::profile) {
    run_profile_window(setting, result);
    return result;
  }
  clock.done("gpu_context_and_loading");
  run_protocol(setting, result, clock);
  // The kernels compiled from the kernel's source: the functions of its library (nvcc's host
  // stubs carry the kernels' names).
  add_kernel_sources(result, kernel_names_in_file(job.kernel_library), "solve()");
  result.phases_s = clock.phases();
  return result;
}

}  // namespace kopt::harness
