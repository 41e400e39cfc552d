#include "cli/bench_setup.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/compile_failure.h"
#include "cli/dimension_args.h"
#include "cli/kernel_flags.h"
#include "core/error.h"
#include "core/file_lock.h"
#include "core/files.h"
#include "core/install_layout.h"
#include "core/python.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "core/version.h"
#include "harness/python_reference.h"
#include "harness/result_fields.h"

namespace kopt::cli {
namespace fs = std::filesystem;
namespace {

compile::compile_result build(const fs::path& file, kernel::backend backend, const std::string& arch,
                              const env::gpu_device& device, const std::string& nvcc_bin) {
  compile::compile_request request;
  request.kernel_file = file;
  request.backend = backend;
  request.arch = arch;
  request.device = device.capability;
  request.nvcc_bin = nvcc_bin;
  return compile::compile_kernel(request);
}

void use_python_runner(harness::bench_job& job) {
  job.python = python_command();
  job.python_runner = companion_file(python_runner_file).string();
  job.harness_abi_library = companion_file(harness_abi_file).string();
}

}  // namespace

void bench_target_options::add_to(CLI::App& sub) {
  sub.add_option("kernel", kernel,
                 "the kernel: a .cu file exposing extern \"C\" void solve(...), or a Triton .py module with "
                 "setup() and run_kernel()")
      ->required();
  sub.add_option("--ref", ref, "reference: a .py module with reference(**kwargs), or a .cu file with the same solve()");
  sub.add_option("--backend", backend, "cuda, cutlass or triton (default: from the file)");
  sub.add_option("--dim", dims, "NAME=VALUE: set solve()'s scalar NAME (also names of kopt's flags)")
      ->allow_extra_args(false);
  sub.add_option("--ptr-size", ptr_size, "element count of buffers without an annotated size");
  sub.add_option("--arch", arch, "target architecture (default: the GPU's)");
  sub.add_option("--gpu", gpu, "CUDA device ordinal")->default_val(0);
  sub.add_option("--nvcc-bin", nvcc_bin, "nvcc to use");
  sub.add_option("--timeout", timeout, "time limit of the measuring process [s]")->default_val(600);
  sub.footer("Dimensions: --NAME=VALUE, e.g. --rows=4096 --cols=1024.");
}

prepared_bench prepare_bench(const bench_target_options& options, CLI::App& sub, harness::bench_job& job) {
  prepared_bench p;
  p.kernel_file = fs::absolute(options.kernel);
  const std::string source = read_text_file(p.kernel_file, "kernel file");
  std::optional<kernel::backend> requested;
  if (!options.backend.empty()) requested = kernel::parse_backend_name(options.backend);
  const auto dims = collect_dimension_args(sub.remaining(), options.dims);
  const auto flags = kopt_flag_names(sub);
  std::optional<std::int64_t> ptr_size;
  if (options.ptr_size > 0) ptr_size = options.ptr_size;
  p.plan = kernel::plan_kernel(p.kernel_file, source, requested, dims, ptr_size, flags);
  const bool triton = p.plan.backend == kernel::backend::triton;
  if (triton) {
    // Checked before anything slow: that the module parses and defines setup() and run_kernel().
    use_python_runner(job);
    harness::check_triton_module(job.python, job.python_runner, p.kernel_file);
  }
  if (!options.ref.empty()) {
    p.ref_file = fs::absolute(options.ref);
    read_text_file(p.ref_file, "reference file");
    if (p.ref_file.extension() == ".py") {
      // Checked before anything slow: that it parses and defines reference().
      use_python_runner(job);
      harness::check_python_reference(job.python, job.python_runner, p.ref_file);
    } else if (triton) {
      throw error(fmt::format("reference {}: a Triton kernel needs a Python reference (a .py module with "
                              "reference(**kwargs))",
                              options.ref));
    } else if (p.ref_file.extension() != ".cu") {
      throw error(fmt::format("reference {}: give a Python module (.py with reference()) or a .cu file with the "
                              "kernel's solve() signature",
                              options.ref));
    }
  }

  p.gpus = env::probe_gpus();
  const env::gpu_device* device = p.gpus.device(options.gpu);
  if (device == nullptr) {
    throw error(fmt::format("no GPU to {} ({}): {} needs an NVIDIA GPU; "
                            "kopt inspect and kopt compile work without one",
                            options.gpu_purpose, p.gpus.has_gpu() ? fmt::format("--gpu {} is not visible", options.gpu)
                                             : p.gpus.driver_problem,
                            options.command_name));
  }
  p.device = *device;
  job.kernel_source = p.kernel_file.string();
  job.reference_source = p.ref_file.string();
  job.backend = std::string(kernel::to_string(p.plan.backend));
  job.dims = dims;
  job.ptr_size = ptr_size;
  job.own_flag_names = flags;
  if (triton) {
    // Triton compiles when run_kernel() first launches, inside the measuring process.
    p.kernel_build.arch = compile::default_arch(p.device.capability);
    return p;
  }

  p.kernel_build = build(p.kernel_file, p.plan.backend, options.arch, p.device, options.nvcc_bin);
  if (!p.kernel_build.ok()) {
    p.build_failed = report_compile_failure(options.kernel, p.kernel_build);
    return p;
  }
  compile::compile_result reference_build;
  if (p.ref_file.extension() == ".cu") {
    const std::string ref_source = read_text_file(p.ref_file, "reference file");
    reference_build = build(p.ref_file, kernel::infer_backend(p.ref_file, ref_source, std::nullopt), options.arch,
                            p.device, options.nvcc_bin);
    if (!reference_build.ok()) {
      p.build_failed = report_compile_failure(options.ref, reference_build);
      return p;
    }
  }

  job.kernel_library = p.kernel_build.library.string();
  job.reference_library = reference_build.ok() ? reference_build.library.string() : "";
  return p;
}

wrapped_child_run run_wrapped_measuring_child(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                                              const env::gpu_device& device, int timeout_s) {
  const fs::path work = cache_root() / "bench" / fmt::format("{}-{}", ::getpid(), std::time(nullptr));
  const fs::path job_file = work / "job.json";
  const fs::path result_file = work / "result.json";
  write_json_file(job_file, harness::to_json(job));
  // One measuring kopt per GPU at a time: two would slow each other down.
  file_lock gpu_lock(cache_root() / "locks" / fmt::format("{}.lock", device.uuid));
  if (!gpu_lock.try_lock()) {
    std::fprintf(stderr, "kopt: another kopt is measuring on %s; waiting for it\n", device.uuid.c_str());
    gpu_lock.lock();
  }
  std::vector<std::string> argv = wrapper;
  const std::vector<std::string> child = measuring_child_argv(job, job_file.string(), result_file.string());
  argv.insert(argv.end(), child.begin(), child.end());
  // The child sees exactly the chosen GPU as device 0, so the kernel's runtime uses it.
  std::map<std::string, std::string> env{{"CUDA_VISIBLE_DEVICES", device.uuid}};
  // Triton compiles into a cache of this run's own, so no binary from an earlier run (of
  // another version of the module, say) can stand in for the one the source gives now.
  if (is_triton(job)) env["TRITON_CACHE_DIR"] = (work / "triton-cache").string();
  wrapped_child_run run;
  run.process = run_process({.argv = argv, .extra_env = env, .timeout = std::chrono::seconds(timeout_s)});
  std::error_code ec;
  if (fs::exists(result_file, ec)) run.result = read_json_file(result_file);
  fs::remove_all(work, ec);
  return run;
}

bool is_triton(const harness::bench_job& job) { return job.backend == kernel::to_string(kernel::backend::triton); }

std::vector<std::string> measuring_child_argv(const harness::bench_job& job, const std::string& job_file,
                                              const std::string& result_file) {
  if (is_triton(job)) return {job.python, job.python_runner, "triton", job_file, result_file};
  return {fs::read_symlink("/proc/self/exe").string(), "harness", job_file, result_file};
}

// What the harness adds to a CUDA result in the child and the Python runner leaves to kopt.
void complete_python_result(json& result) {
  result["kopt_version"] = version_string;
  if (result.contains("kernel")) harness::add_timing_conclusions(result);
}

json run_measuring_child(const harness::bench_job& job, const env::gpu_device& device, int timeout_s) {
  const wrapped_child_run child = run_wrapped_measuring_child({}, job, device, timeout_s);
  const process_result& run = child.process;
  if (run.exit_code == static_cast<int>(exit_status::usage_or_environment)) {
    std::string message = run.stderr_text;
    if (message.rfind("kopt: error: ", 0) == 0) message = message.substr(13);
    const std::size_t line_end = message.find('\n');
    const std::string detail = line_end == std::string::npos ? "" : message.substr(line_end + 1);
    throw error(std::string(trim(message.substr(0, line_end))), std::string(trim(detail)));
  }
  if (run.succeeded() && child.result) {
    json result = *child.result;
    if (is_triton(job)) complete_python_result(result);
    return result;
  }
  const bool hung = run.timed_out;
  return json{{"status", hung ? "timed_out" : "crashed"},
              {"reason", hung ? fmt::format("the kernel did not finish: the measuring process was killed after {} s "
                                            "(--timeout)", timeout_s)
                              : fmt::format("the measuring process died ({}): {}", run.describe_end(),
                                            std::string(trim(run.stderr_text)))},
              {"correctness", json{{"checked", false}, {"passed", nullptr}}}};
}

void add_provenance(json& result, const prepared_bench& prepared, const harness::bench_job& job) {
  result["kernel_file"] = prepared.kernel_file.string();
  result["reference_file"] = prepared.ref_file.string();
  result["gpu_name"] = prepared.device.name;
  result["gpu_uuid"] = prepared.device.uuid;
  result["arch"] = prepared.kernel_build.arch.name;
  result["driver_version"] = prepared.gpus.driver_version;
  result["driver_cuda_version"] = env::format_cuda_version(prepared.gpus.driver_cuda_version);
  result["nvcc_command"] = prepared.kernel_build.command;
  result["nvcc_version"] = prepared.kernel_build.nvcc_version;
  result["seed"] = job.seed;
  // A Triton result carries run_kernel()'s signature and the dimensions as setup() got them.
  if (prepared.plan.backend == kernel::backend::triton) return;
  result["dims"] = kernel::to_json(prepared.plan)["dimensions"];
  std::vector<std::string> parameters;
  for (const auto& p : prepared.plan.solve->parameters) parameters.push_back(p.spelled_type + " " + p.name);
  result["signature"] = fmt::format("void solve({})", fmt::join(parameters, ", "));
}

}  // namespace kopt::cli
