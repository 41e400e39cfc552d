#include "harness/python_reference_job.h"

#include "core/private_folder.h"

namespace kopt::harness {

sampling_options sampling_of(const bench_job& job) {
  return {job.warmup, job.repeat, job.min_seconds, job.max_seconds, job.target_relative_half_width};
}

python_reference_result run_python_reference_job(const bench_job& job, const kernel::kernel_plan& plan,
                                                  const triton_problem* triton,
                                                  const std::map<std::uint64_t, buffer_contents>& inputs,
                                                  const std::map<std::uint64_t, std::filesystem::path>* output_folders) {
  python_reference_request request;
  request.python = job.python;
  request.runner = job.python_runner;
  request.module = job.reference_source;
  request.harness_abi_library = job.harness_abi_library;
  const private_folder folder("kopt-reference", "the Python reference's data");
  request.work_dir = folder.path();
  request.plan = &plan;
  request.triton = triton;
  if (job.host_only) request.device = "cpu";
  request.seeds = &inputs;
  request.output_folders = output_folders;
  if (!job.validation_only) request.timing = reference_timing_request{job.seed, job.hot, sampling_of(job)};
  return run_python_reference(request);
}

}  // namespace kopt::harness
