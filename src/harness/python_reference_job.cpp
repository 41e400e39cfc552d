#include "harness/python_reference_job.h"

#include <unistd.h>

#include <filesystem>

#include <fmt/format.h>

namespace kopt::harness {

sampling_options sampling_of(const bench_job& job) {
  return {job.warmup, job.repeat, job.min_seconds, job.max_seconds, job.target_relative_half_width};
}

python_reference_result run_python_reference_job(const bench_job& job, const kernel::kernel_plan& plan,
                                                  const std::map<std::uint64_t, buffer_contents>& inputs) {
  python_reference_request request;
  request.python = job.python;
  request.runner = job.python_runner;
  request.module = job.reference_source;
  request.harness_abi_library = job.harness_abi_library;
  // Memory-backed when the machine has /dev/shm: the data goes through the page cache only.
  std::error_code ec;
  const std::filesystem::path shm = "/dev/shm";
  const std::filesystem::path base = std::filesystem::is_directory(shm, ec) && ::access(shm.c_str(), W_OK) == 0
                                         ? shm
                                         : std::filesystem::temp_directory_path();
  request.work_dir = base / fmt::format("kopt-reference-{}", ::getpid());
  request.plan = &plan;
  request.seeds = &inputs;
  if (!job.validation_only) request.timing = reference_timing_request{job.seed, job.hot, sampling_of(job)};
  struct cleanup {
    std::filesystem::path dir;
    ~cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } remove_afterwards{request.work_dir};
  return run_python_reference(request);
}

}  // namespace kopt::harness
