// kopt bench KERNEL [--ref REF] [dims]: validate against the reference, then time kernel and
// reference with device timestamps, in a child process (`kopt harness`) so that a kernel that
// crashes or hangs costs one result, never kopt.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/compile_failure.h"
#include "cli/dimension_args.h"
#include "cli/kernel_flags.h"
#include "compile/compiler.h"
#include "core/error.h"
#include "core/file_lock.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "kernel/buffer_plan.h"

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

void print_result(const json& r, const kernel::kernel_plan& plan) {
  if (r.contains("protocol")) std::printf("protocol: %s\n", r["protocol"].get<std::string>().c_str());
  const json& correctness = r["correctness"];
  if (correctness.value("checked", false)) {
    for (const auto& seed : correctness.value("seeds", json::array())) {
      for (const auto& o : seed["outputs"]) {
        std::printf("check (seed %llu, %s): %s\n", static_cast<unsigned long long>(seed["seed"].get<std::uint64_t>()),
                    seed["when"].get<std::string>().c_str(), o["summary"].get<std::string>().c_str());
      }
    }
  } else {
    std::printf("check: no reference given, outputs not validated (guards and inputs were checked)\n");
  }
  if (!r.contains("kernel")) return;
  std::printf("\n%-10s %10s %22s %10s %10s %10s %8s  %s\n", "", "median ms", "95% CI of median", "min ms", "p90 ms",
              "host ms", "samples", "stopped");
  for (const char* who : {"kernel", "reference"}) {
    if (!r.contains(who)) continue;
    const json& t = r[who];
    std::printf("%-10s %10.4f %10.4f-%-11.4f %10.4f %10.4f %10.4f %8zu  %s\n", who, t["median_ms"].get<double>(),
                t["median_ci95_ms"][0].get<double>(), t["median_ci95_ms"][1].get<double>(), t["min_ms"].get<double>(),
                t["p90_ms"].get<double>(), t["host_end_to_end_median_ms"].get<double>(),
                t["sample_count"].get<std::size_t>(), t["stop_reason"].get<std::string>().c_str());
  }
  std::printf("(GPU time from device timestamps, summed over the kernels of one solve() call; host ms is the "
              "call plus synchronisation, for comparison)\n");
  const double median_ms = r["kernel"]["median_ms"].get<double>();
  if (median_ms > 0) {
    std::printf("approximate bandwidth: %.1f GB/s (buffer bytes / median; an estimate, not a measurement)\n",
                static_cast<double>(plan.total_bytes) / (median_ms * 1e-3) / 1e9);
  }
  if (r.contains("speedup_vs_reference")) {
    std::string interval;
    if (r.contains("speedup_vs_reference_ci95")) {
      interval = fmt::format(", 95% interval {:.3f}-{:.3f}", r["speedup_vs_reference_ci95"][0].get<double>(),
                             r["speedup_vs_reference_ci95"][1].get<double>());
    }
    std::printf("speedup vs reference: %.3fx (ratio of GPU medians%s); kernel is %s than the reference (%s)\n",
                r["speedup_vs_reference"].get<double>(), interval.c_str(),
                r["kernel_vs_reference"]["verdict"] == "same" ? "no faster or slower"
                                                              : r["kernel_vs_reference"]["verdict"].get<std::string>().c_str(),
                r["kernel_vs_reference"]["reason"].get<std::string>().c_str());
  }
  if (r["kernel"]["streams"].get<int>() > 1) {
    std::printf("note: solve() ran GPU work on %d streams; all of it is counted\n", r["kernel"]["streams"].get<int>());
  }
}

class bench_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    m_sub = &sub;
    sub.allow_extras();
    sub.add_option("kernel", m_kernel, "the kernel: a .cu file exposing extern \"C\" void solve(...)")->required();
    sub.add_option("--ref", m_ref, "reference: a .cu file with the same solve() signature");
    sub.add_option("--backend", m_backend, "cuda or cutlass (default: from the source)");
    sub.add_option("--dim", m_dims, "NAME=VALUE: set solve()'s scalar NAME (also names of kopt's flags)")
        ->allow_extra_args(false);
    sub.add_option("--ptr-size", m_ptr_size, "element count of buffers without an annotated size");
    sub.add_option("--warmup", m_job.warmup, "calls before sampling (at least)")->default_val(3);
    sub.add_option("--repeat", m_job.repeat, "samples (at least; more until the median is stable)")->default_val(10);
    sub.add_option("--max-seconds", m_job.max_seconds, "sampling time limit per version [s]")->default_val(10.0);
    sub.add_option("--seed", m_job.seed, "seed of the random inputs")->default_val(0);
    sub.add_option("--atol", m_atol, "absolute tolerance (default by output type)");
    sub.add_option("--rtol", m_rtol, "relative tolerance (default by output type)");
    sub.add_flag("--hot", m_job.hot, "keep caches warm between samples (default: flush L2 before each)");
    sub.add_option("--arch", m_arch, "target architecture (default: the GPU's)");
    sub.add_option("--gpu", m_gpu, "CUDA device ordinal")->default_val(0);
    sub.add_option("--nvcc-bin", m_nvcc_bin, "nvcc to use");
    sub.add_option("--timeout", m_timeout, "time limit of the measuring process [s]")->default_val(600);
    sub.add_option("--json-out", m_json_out, "write the result JSON to this file");
    sub.add_flag("--json", m_json, "print the result JSON");
    sub.add_flag("--profile-mode", m_job.profile_mode,
                 "run only warm-up and then --profile-calls calls between cuProfilerStart/Stop, for "
                 "ncu --profile-from-start off; nothing is validated or timed");
    sub.add_option("--profile-calls", m_job.profile_calls, "calls inside the profiler window")->default_val(1);
    sub.footer("Dimensions: --NAME=VALUE, e.g. --rows=4096 --cols=1024.");
  }

  int run() override {
    const fs::path kernel_file = fs::absolute(m_kernel);
    const std::string source = read_text_file(kernel_file, "kernel file");
    std::optional<kernel::backend> requested;
    if (!m_backend.empty()) requested = kernel::parse_backend_name(m_backend);
    const auto dims = collect_dimension_args(m_sub->remaining(), m_dims);
    const auto flags = kopt_flag_names(*m_sub);
    std::optional<std::int64_t> ptr_size;
    if (m_ptr_size > 0) ptr_size = m_ptr_size;
    const kernel::kernel_plan plan = kernel::plan_kernel(kernel_file, source, requested, dims, ptr_size, flags);
    if (plan.backend == kernel::backend::triton) {
      throw error("Triton kernels are not supported by kopt bench yet: give a .cu kernel");
    }
    fs::path ref_file;
    if (!m_ref.empty()) {
      ref_file = fs::absolute(m_ref);
      read_text_file(ref_file, "reference file");
      if (ref_file.extension() != ".cu") {
        throw error(fmt::format("reference {}: this kopt validates against native .cu references only; "
                                "Python references are not supported yet",
                                m_ref));
      }
    }

    const env::gpu_probe_result gpus = env::probe_gpus();
    const env::gpu_device* device = gpus.device(m_gpu);
    if (device == nullptr) {
      throw error(fmt::format("no GPU to time on ({}): kopt bench needs an NVIDIA GPU; "
                              "kopt inspect and kopt compile work without one",
                              gpus.has_gpu() ? fmt::format("--gpu {} is not visible", m_gpu) : gpus.driver_problem));
    }

    const compile::compile_result kernel_build = build(kernel_file, plan.backend, m_arch, *device, m_nvcc_bin);
    if (!kernel_build.ok()) return report_compile_failure(m_kernel, kernel_build);
    compile::compile_result reference_build;
    if (!ref_file.empty()) {
      const std::string ref_source = read_text_file(ref_file, "reference file");
      reference_build = build(ref_file, kernel::infer_backend(ref_file, ref_source, std::nullopt), m_arch, *device, m_nvcc_bin);
      if (!reference_build.ok()) return report_compile_failure(m_ref, reference_build);
    }

    m_job.kernel_source = kernel_file.string();
    m_job.kernel_library = kernel_build.library.string();
    m_job.reference_source = ref_file.string();
    m_job.reference_library = ref_file.empty() ? "" : reference_build.library.string();
    m_job.backend = std::string(kernel::to_string(plan.backend));
    m_job.dims = dims;
    m_job.ptr_size = ptr_size;
    m_job.own_flag_names = flags;
    if (m_atol >= 0) m_job.atol = m_atol;
    if (m_rtol >= 0) m_job.rtol = m_rtol;

    json result = measure(*device);
    result["kernel_file"] = kernel_file.string();
    result["reference_file"] = ref_file.string();
    result["gpu_name"] = device->name;
    result["gpu_uuid"] = device->uuid;
    result["arch"] = kernel_build.arch.name;
    result["driver_version"] = gpus.driver_version;
    result["nvcc_command"] = kernel_build.command;
    result["seed"] = m_job.seed;
    result["dims"] = kernel::to_json(plan)["scalars"];
    const json document = with_schema("benchmark_result", 1, result);
    if (!m_json_out.empty()) write_json_file(m_json_out, document);
    if (m_json) {
      std::printf("%s\n", document.dump(2).c_str());
    } else if (!m_job.profile_mode) {
      std::printf("kernel: %s on %s (%s)\n", m_kernel.c_str(), device->name.c_str(), kernel_build.arch.name.c_str());
      print_result(result, plan);
    }
    if (m_job.profile_mode && result["status"] == "ok") {
      std::printf("profile mode: %d call(s) of solve() ran inside the profiler window\n", m_job.profile_calls);
      return static_cast<int>(exit_status::ok);
    }
    if (result["status"] != "ok") {
      std::fprintf(stderr, "kopt: %s: %s\n", result["status"].get<std::string>().c_str(),
                   result["reason"].get<std::string>().c_str());
      return static_cast<int>(exit_status::kernel_failed);
    }
    return static_cast<int>(exit_status::ok);
  }

 private:
  // Runs the measuring child and turns how it ended into a result.
  json measure(const env::gpu_device& device) {
    const fs::path work = cache_root() / "bench" / fmt::format("{}-{}", ::getpid(), std::time(nullptr));
    const fs::path job_file = work / "job.json";
    const fs::path result_file = work / "result.json";
    write_json_file(job_file, harness::to_json(m_job));
    // One measuring kopt per GPU at a time: two would slow each other down.
    file_lock gpu_lock(cache_root() / "locks" / fmt::format("{}.lock", device.uuid));
    if (!gpu_lock.try_lock()) {
      std::fprintf(stderr, "kopt: another kopt is measuring on %s; waiting for it\n", device.uuid.c_str());
      gpu_lock.lock();
    }
    const process_result run = run_process(
        {.argv = {fs::read_symlink("/proc/self/exe").string(), "harness", job_file.string(), result_file.string()},
         // The child sees exactly the chosen GPU as device 0, so the kernel's runtime uses it.
         .extra_env = {{"CUDA_VISIBLE_DEVICES", device.uuid}},
         .timeout = std::chrono::seconds(m_timeout)});
    std::error_code ec;
    if (run.exit_code == static_cast<int>(exit_status::usage_or_environment)) {
      fs::remove_all(work, ec);
      std::string message = run.stderr_text;
      if (message.rfind("kopt: error: ", 0) == 0) message = message.substr(13);
      throw error(std::string(trim(message.substr(0, message.find('\n')))), run.stderr_text);
    }
    json result;
    if (run.succeeded() && fs::exists(result_file, ec)) {
      result = read_json_file(result_file);
    } else {
      const bool hung = run.timed_out;
      result = json{{"status", hung ? "timed_out" : "crashed"},
                    {"reason", hung ? fmt::format("the kernel did not finish: the measuring process was killed after {} s "
                                                  "(--timeout)", m_timeout)
                                    : fmt::format("the measuring process died ({}): {}", run.describe_end(),
                                                  std::string(trim(run.stderr_text)))},
                    {"correctness", json{{"checked", false}, {"passed", nullptr}}}};
    }
    fs::remove_all(work, ec);
    return result;
  }

  CLI::App* m_sub = nullptr;
  harness::bench_job m_job;
  std::string m_kernel;
  std::string m_ref;
  std::string m_backend;
  std::vector<std::string> m_dims;
  std::int64_t m_ptr_size = 0;
  double m_atol = -1;
  double m_rtol = -1;
  std::string m_arch;
  int m_gpu = 0;
  std::string m_nvcc_bin;
  int m_timeout = 600;
  std::string m_json_out;
  bool m_json = false;
};

}  // namespace

std::unique_ptr<command> make_bench_command() { return std::make_unique<bench_command>(); }

}  // namespace kopt::cli
