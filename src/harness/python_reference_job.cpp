#include "harness/python_reference_job.h"

#include "core/private_folder.h"
#include "harness/evidence_files.h"

namespace kopt::harness {

sampling_options sampling_of(const bench_job& job) {
  sampling_options options;
  static_cast<measure::sampling_settings&>(options) = job.sampling;
  return options;
}

namespace {

python_reference_request request_for(const bench_job& job, const kernel::kernel_plan& plan,
                                     const std::filesystem::path& work_dir) {
  python_reference_request request;
  request.python = job.python;
  request.runner = job.python_runner;
  request.module = job.reference_source;
  request.harness_abi_library = job.harness_abi_library;
  request.work_dir = work_dir;
  request.plan = &plan;
  if (job.host_only) request.device = "cpu";
  // The parent compares each key's outputs as they come, with these (pipeline/early_comparisons.h).
  if (!evidence_dir_of(job).empty())
    request.tolerances_file = announced_tolerances_file(evidence_dir_of(job));
  if (is_timed(job)) {
    timing_options timing;
    static_cast<measure::sampling_settings&>(timing) = job.sampling;
    timing.seed = job.seed;
    request.timing = timing;
  }
  return request;
}

}  // namespace

python_reference_result run_python_reference_job(const bench_job& job, const kernel::kernel_plan& plan,
                                                  const triton_problem* triton,
                                                  const std::map<std::uint64_t, buffer_contents>& inputs,
                                                  const std::map<std::uint64_t, std::filesystem::path>* output_folders) {
  const private_folder folder("kopt-reference", "the Python reference's data");
  python_reference_request request = request_for(job, plan, folder.path());
  request.triton = triton;
  request.seeds = &inputs;
  request.output_folders = output_folders;
  return run_python_reference(request);
}

python_reference_result run_python_reference_keys(const bench_job& job, const kernel::kernel_plan& plan) {
  const private_folder folder("kopt-reference", "the Python reference's request");
  python_reference_request request = request_for(job, plan, folder.path());
  const json job_document = to_document(job);
  request.job = &job_document;
  return run_python_reference(request);
}

}  // namespace kopt::harness
