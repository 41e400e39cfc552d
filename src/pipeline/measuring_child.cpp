#include "pipeline/measuring_child.h"

#include <filesystem>

#include "kernel/backend.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;

bool is_triton_backend(const std::string& backend) { return backend == kernel::to_string(kernel::backend::triton); }

bool is_triton(const harness::bench_job& job) { return is_triton_backend(job.backend); }

std::vector<std::string> measuring_child_argv(const harness::bench_job& job, const std::string& job_file,
                                              const std::string& result_file) {
  // A Triton kernel's reference runs as a CUDA kernel's .py reference does, through kopt.
  if (is_triton(job) && job.kind != harness::job_kind::reference) {
    return {job.python, job.python_runner,
            job.kind == harness::job_kind::problem ? "triton-problem" : "triton", job_file, result_file};
  }
  return {fs::read_symlink("/proc/self/exe").string(), "harness", job_file, result_file};
}

bool result_is_sealed(const std::vector<std::string>& wrapper, const harness::bench_job& job) {
  return wrapper.empty() && job.kind != harness::job_kind::problem;
}

}  // namespace kopt::pipeline
