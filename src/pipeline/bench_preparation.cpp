#include "pipeline/bench_preparation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compile/shell_safety.h"
#include "core/error.h"
#include "core/files.h"
#include "core/install_layout.h"
#include "core/python.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "core/version.h"
#include "harness/python_reference.h"
#include "pipeline/child_jobs.h"
#include "pipeline/triton_problem_step.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

compile::compile_result build(const fs::path& file, kernel::backend backend, const bench_target& target,
                              const env::gpu_device& device) {
  compile::compile_request request;
  request.kernel_file = file;
  request.backend = backend;
  request.arch = target.arch;
  request.defines = target.defines;
  request.device = device.capability;
  request.nvcc_bin = target.nvcc_bin;
  return compile::compile_kernel(request);
}

void use_python_runner(harness::bench_job& job) {
  job.python = python_command();
  job.python_runner = companion_file(python_runner_file).string();
  job.harness_abi_library = companion_file(harness_abi_file).string();
}

// The Triton module and the reference, checked before anything slow: that each parses and
// defines what kopt calls (run_kernel() and, unless the reference has one, setup(); reference()).
void check_python_sources(const bench_target& options, prepared_bench& p, harness::bench_job& job, bool triton) {
  if (triton) {
    use_python_runner(job);
    job.problem_owner = harness::check_triton_module(job.python, job.python_runner, p.kernel_file,
                                                     p.ref_file.extension() == ".py" ? p.ref_file : fs::path());
  }
  if (options.ref.empty()) return;
  read_text_file(p.ref_file, "reference file");
  if (p.ref_file.extension() == ".py") {
    use_python_runner(job);
    harness::check_python_reference(job.python, job.python_runner, p.ref_file);
  } else if (triton) {
    throw error(fmt::format("reference {}: a Triton kernel needs a Python reference (a .py module with "
                            "reference(**kwargs))",
                            options.ref.string()));
  } else if (p.ref_file.extension() != ".cu") {
    throw error(fmt::format("reference {}: give a Python module (.py with reference()) or a .cu file with the "
                            "kernel's solve() signature",
                            options.ref.string()));
  }
}

env::gpu_device find_device(const bench_target& options, const env::gpu_probe_result& gpus) {
  const env::gpu_device* device = gpus.device(options.gpu);
  if (device == nullptr) {
    throw error(fmt::format("no GPU to {} ({}): {} needs an NVIDIA GPU; "
                            "kopt inspect and kopt compile work without one",
                            options.gpu_purpose, gpus.has_gpu() ? fmt::format("--gpu {} is not visible", options.gpu)
                                                                : gpus.driver_problem,
                            options.command_name));
  }
  return *device;
}

// Asks the worker for the processes whose start-up is slow, with the jobs as run_judged will
// give them, as far as they are known now.
void prestart_children(const prepared_bench& p, const harness::bench_job& job, measuring_worker& worker,
                       const evidence_folders& prestart, bool triton) {
  if (triton) {
    // Its process runs at once: only a kopt that keeps processes warm starts one (for the next
    // command, when this one finds none waiting).
    worker.prestart(problem_job(job, "", {}, job.problem_owner.value_or("")), p.device);
  }
  if (triton || !profiles(job)) {
    // A Triton kernel's runner loads torch and Triton meanwhile; a CUDA kernel's process
    // makes its GPU context while the kernel builds (prestarted_child.h).
    const std::string kept = p.ref_file.empty() ? "" : prestart.kernel.string();
    worker.prestart(profiles(job) ? profile_job(job) : kernel_job(job, kept), p.device);
  }
  if (p.ref_file.extension() == ".py") {
    worker.prestart(reference_job(job, {}, prestart.reference.string(), true), p.device);
  }
}

// A Triton kernel has no build (Triton compiles when run_kernel() first launches, inside the
// measuring process): its problem step runs instead, and the buffers are setup()'s tensors.
void run_problem_step(const bench_target& options, prepared_bench& p, harness::bench_job& job,
                      measuring_worker& worker) {
  p.kernel_build.arch = compile::default_arch(p.device.capability);
  triton_problem_run problem = run_triton_problem_step(worker, job, p.device, options.timeout_s);
  job.triton_problem = harness::to_json(problem.problem);
  const std::vector<kernel::dimension_arg> dims = p.plan.passed_through;
  p.plan = harness::plan_of(problem.problem);
  p.plan.passed_through = dims;
  p.triton_problem_folder = problem.folder;
  p.failed_problem = problem.failure;
}

// The kernel's build, then a .cu reference's; the first that fails is the bench's failed build.
void build_sources(const bench_target& options, prepared_bench& p, harness::bench_job& job) {
  p.kernel_build = build(p.kernel_file, p.plan.backend, options, p.device);
  if (!p.kernel_build.ok()) {
    p.failed_build = build_failure{options.kernel.string(), p.kernel_build};
    return;
  }
  compile::compile_result reference_build;
  if (p.ref_file.extension() == ".cu") {
    const std::string ref_source = read_text_file(p.ref_file, "reference file");
    reference_build = build(p.ref_file, kernel::infer_backend(p.ref_file, ref_source, std::nullopt), options, p.device);
    if (!reference_build.ok()) {
      p.failed_build = build_failure{options.ref.string(), reference_build};
      return;
    }
  }
  job.kernel_library = p.kernel_build.library.string();
  job.reference_library = reference_build.ok() ? reference_build.library.string() : "";
}

}  // namespace

kernel::kernel_plan plan_target(const bench_target& options) {
  const fs::path kernel_file = fs::absolute(options.kernel);
  const std::string source = read_text_file(kernel_file, "kernel file");
  const std::optional<kernel::backend> requested = kernel::parse_backend_request(options.backend);
  // -D values a shell would expand are refused here, before anything is planned or built.
  compile::check_defines(options.defines);
  return kernel::plan_kernel(kernel_file, source, requested, options.dims, options.ptr_size, options.own_flag_names,
                             options.defines);
}

prepared_bench prepare_bench(const bench_target& options, harness::bench_job& job, measuring_worker& worker,
                             const evidence_folders* prestart) {
  prepared_bench p;
  p.kernel_file = fs::absolute(options.kernel);
  p.plan = plan_target(options);
  const bool triton = p.plan.backend == kernel::backend::triton;
  if (!options.ref.empty()) p.ref_file = fs::absolute(options.ref);
  check_python_sources(options, p, job, triton);

  p.gpus = worker.probe_gpus();
  p.device = find_device(options, p.gpus);
  job.kernel_source = p.kernel_file.string();
  job.reference_source = p.ref_file.string();
  job.backend = std::string(kernel::to_string(p.plan.backend));
  job.dims = options.dims;
  job.ptr_size = options.ptr_size;
  job.defines = options.defines;
  if (prestart != nullptr) prestart_children(p, job, worker, *prestart, triton);
  if (triton) {
    run_problem_step(options, p, job, worker);
  } else {
    build_sources(options, p, job);
  }
  return p;
}

run_provenance provenance_of(const prepared_bench& prepared, const harness::bench_job& job) {
  run_provenance result;
  result.kernel_file = prepared.kernel_file.string();
  result.reference_file = prepared.ref_file.string();
  result.gpu_name = prepared.device.name;
  result.gpu_uuid = prepared.device.uuid;
  result.arch = prepared.kernel_build.arch.name;
  result.driver_version = prepared.gpus.driver_version;
  result.driver_cuda_version = env::format_cuda_version(prepared.gpus.driver_cuda_version);
  if (!prepared.kernel_build.command.empty()) result.nvcc_command = prepared.kernel_build.command;
  result.nvcc_version = prepared.kernel_build.nvcc_version;
  result.seed = job.seed;
  result.buffer_bytes = prepared.plan.total_bytes;
  result.backend = std::string(kernel::to_string(prepared.plan.backend));
  // A Triton result carries run_kernel()'s signature and the dimensions as setup() got them.
  if (prepared.plan.backend == kernel::backend::triton) return result;
  result.dims = kernel::to_json(prepared.plan)["dimensions"];
  std::vector<std::string> parameters;
  for (const auto& p : prepared.plan.solve->parameters) parameters.push_back(p.spelled_type + " " + p.name);
  result.signature = fmt::format("void solve({})", fmt::join(parameters, ", "));
  return result;
}

}  // namespace kopt::pipeline
