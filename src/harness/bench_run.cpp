#include "harness/bench_run.h"

#include <dlfcn.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/text.h"
#include "core/version.h"
#include "cuda/cupti_activity.h"
#include "cuda/driver_api.h"
#include "cuda/nvml_library.h"
#include "harness/call_timer.h"
#include "harness/device_buffers.h"
#include "harness/input_fill.h"
#include "harness/l2_flush.h"
#include "harness/poison.h"
#include "harness/solve_call.h"
#include "kernel/buffer_plan.h"
#include "measure/comparison.h"
#include "measure/statistics.h"
#include "measure/stopping_rule.h"
#include "validate/output_comparison.h"
#include "validate/tolerance.h"

namespace kopt::harness {
namespace {
using kernel::buffer_role;

// A failure of the code under test (not of kopt or the machine).
struct kernel_failure {
  std::string status;  // "failed" or "crashed"
  std::string reason;
};

void* load_solve(const std::string& library, const char* what) {
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw error(fmt::format("cannot load the {} library {}: {}", what, library, ::dlerror()));
  void* solve = ::dlsym(handle, "solve");
  if (solve == nullptr) throw error(fmt::format("the {} library {} exports no solve()", what, library));
  return solve;
}

// One callable version (kernel or reference) bound to its own buffers.
struct version {
  std::unique_ptr<solve_call> call;
  std::unique_ptr<device_buffers> buffers;
};

version bind(const cuda::driver_api& api, void* solve, const kernel::kernel_plan& plan) {
  version v;
  v.call = std::make_unique<solve_call>(solve, *plan.solve);
  v.buffers = std::make_unique<device_buffers>(api, plan.buffers);
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    v.call->set_pointer(plan.buffers[i].param.index, reinterpret_cast<void*>(v.buffers->data(i)));
  }
  for (const auto& s : plan.scalars) v.call->set_scalar(s.param.index, s.value);
  return v;
}

void run_once(const cuda::driver_api& api, version& v, const char* who) {
  v.call->invoke();
  if (const CUresult rc = api.ctx_synchronize(); rc != CUDA_SUCCESS) {
    throw kernel_failure{"crashed", fmt::format("the {} failed on the device: {}", who, api.describe(rc))};
  }
}

std::vector<std::vector<std::byte>> host_inputs(const kernel::kernel_plan& plan, std::uint64_t seed) {
  std::vector<std::vector<std::byte>> contents(plan.buffers.size());
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == buffer_role::out) continue;
    contents[i].resize(static_cast<std::size_t>(b.bytes));
    fill_input(contents[i], b.param.element, b.values, buffer_seed(seed, b.param.name));
  }
  return contents;
}

// Validates on one seed; returns the per-output comparisons (throws kernel_failure on a
// fault, a damaged guard or a modified input).
json validate_seed(const cuda::driver_api& api, const kernel::kernel_plan& plan, version& kernel_version,
                   version* reference, std::uint64_t seed, const bench_job& job, bool& passed) {
  const auto contents = host_inputs(plan, seed);
  kernel_version.buffers->prepare(contents);
  run_once(api, kernel_version, "kernel");
  if (const auto damaged = kernel_version.buffers->guard_violations(); !damaged.empty()) {
    throw kernel_failure{"failed", fmt::format("out-of-bounds write: {}", damaged.front())};
  }
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    if (plan.buffers[i].role != buffer_role::in) continue;
    const auto after = kernel_version.buffers->download(i);
    if (std::memcmp(after.data(), contents[i].data(), after.size()) != 0) {
      throw kernel_failure{"failed", fmt::format("the kernel wrote into its input {} (declared const)",
                                                 plan.buffers[i].param.name)};
    }
  }
  json outputs = json::array();
  passed = true;
  if (reference == nullptr) return outputs;
  reference->buffers->prepare(contents);
  run_once(api, *reference, "reference");
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == buffer_role::in) continue;
    const validate::tolerance tol =
        validate::resolve_tolerance(b.param.element, {job.atol, job.rtol, std::nullopt, std::nullopt});
    const auto comparison =
        validate::compare_output(b.param.name, b.param.element, kernel_version.buffers->download(i),
                                 reference->buffers->download(i), poison_for(b.param.element).element_bits, tol);
    passed = passed && comparison.passed;
    outputs.push_back(validate::to_json(comparison));
  }
  return outputs;
}

// An `out` buffer is poisoned with NaN before each run: a kernel that reads it before writing
// it (y += ...) turns the poison into NaNs. Suggest the annotation that gives it real data.
std::string read_before_write_hint(const kernel::kernel_plan& plan, const json& comparison) {
  const std::string name = comparison["name"].get<std::string>();
  bool nan_seen = false;
  for (const auto& m : comparison["first_mismatches"]) nan_seen = nan_seen || m["what"] == "NaN";
  for (const auto& b : plan.buffers) {
    if (b.param.name == name && b.role == buffer_role::out && nan_seen) {
      return fmt::format(" (if the kernel reads {0} before writing it, declare it in the source: // kopt: inout({0}))", name);
    }
  }
  return "";
}

json clocks_json(const std::optional<cuda::sm_clocks>& clocks) {
  if (!clocks) return nullptr;
  return json{{"sm_mhz", clocks->sm_now_mhz}, {"sm_max_mhz", clocks->sm_max_mhz},
              {"event_reasons", clocks->event_reasons}, {"throttled", clocks->throttled}};
}

json time_version(const cuda::driver_api& api, cuda::activity_recorder& recorder, l2_flusher* flusher,
                  version& v, const char* who, const bench_job& job, const std::string& device_uuid) {
  for (int i = 0; i < job.warmup; ++i) run_once(api, v, who);
  const cuda::nvml_library& nvml = cuda::nvml_library::instance();
  const auto clocks_before = nvml.clocks(device_uuid);
  call_timer timer(api, recorder, flusher);
  measure::stopping_rule rule;
  rule.min_samples = static_cast<std::size_t>(std::max(job.repeat, 10));
  rule.min_time = std::chrono::duration<double>(job.min_seconds);
  rule.max_time = std::chrono::duration<double>(job.max_seconds);
  rule.target_relative_half_width = job.target_relative_half_width;
  std::vector<double> gpu_ms;
  std::vector<double> host_ms;
  int kernels = 0;
  int streams = 0;
  const auto started = std::chrono::steady_clock::now();
  measure::stop_reason reason = measure::stop_reason::keep_going;
  while (reason == measure::stop_reason::keep_going) {
    call_sample s;
    try {
      s = timer.time_call([&] { v.call->invoke(); });
    } catch (const error& e) {
      throw kernel_failure{"crashed", fmt::format("the {} failed while being timed: {}", who, e.headline())};
    }
    gpu_ms.push_back(s.kernel_ns / 1e6);
    host_ms.push_back(s.host_ns / 1e6);
    kernels = std::max(kernels, s.kernels);
    streams = std::max(streams, s.streams);
    reason = measure::should_stop(rule, gpu_ms, std::chrono::steady_clock::now() - started);
  }
  // Read while the GPU is still warm from the last sample.
  const auto clocks_after = nvml.clocks(device_uuid);
  const auto g = measure::summarize(gpu_ms);
  const auto h = measure::summarize(host_ms);
  return json{{"median_ms", g.median},
              {"average_ms", g.mean},
              {"min_ms", g.min},
              {"max_ms", g.max},
              {"stdev_ms", g.stdev},
              {"p10_ms", g.p10},
              {"p90_ms", g.p90},
              {"median_ci95_ms", json::array({g.median_ci95.low, g.median_ci95.high})},
              {"sample_count", g.count},
              {"stop_reason", measure::to_string(reason)},
              {"time_source", "GPU: CUPTI kernel activity records, summed over the call's kernels"},
              {"kernels_per_call", kernels},
              {"streams", streams},
              {"host_end_to_end_median_ms", h.median},
              {"clocks", json{{"before_sampling", clocks_json(clocks_before)},
                              {"after_sampling", clocks_json(clocks_after)}}},
              {"samples_ms", gpu_ms}};
}

// Warm-up, then exactly `profile_calls` calls inside the profiler window: no reference, no
// validation, no flush kernel in it.
json run_profile_window(const cuda::driver_api& api, const kernel::kernel_plan& plan, version& kernel_version,
                        const bench_job& job, json& result) {
  try {
    kernel_version.buffers->prepare(host_inputs(plan, job.seed));
    for (int i = 0; i < job.warmup; ++i) run_once(api, kernel_version, "kernel");
    api.profiler_start();
    for (int i = 0; i < job.profile_calls; ++i) run_once(api, kernel_version, "kernel");
    api.profiler_stop();
  } catch (const kernel_failure& failure) {
    result["status"] = failure.status;
    result["reason"] = failure.reason;
  }
  result["profile_mode"] = true;
  result["profile_calls"] = job.profile_calls;
  result["correctness"] = json{{"checked", false}, {"passed", nullptr}};
  return result;
}

}  // namespace

json run_bench_job(const bench_job& job) {
  std::string problem;
  const cuda::driver_api* loaded = cuda::load_driver_api(&problem);
  if (loaded == nullptr) throw error(problem);
  const cuda::driver_api& api = *loaded;
  if (const CUresult rc = api.init(0); rc != CUDA_SUCCESS) {
    throw error(fmt::format("no usable GPU: cuInit: {} (kopt bench needs an NVIDIA GPU)", api.describe(rc)));
  }
  CUdevice device = 0;
  CUcontext context = nullptr;
  api.device_get(&device, 0);
  if (const CUresult rc = api.primary_ctx_retain(&context, device); rc != CUDA_SUCCESS) {
    throw error(fmt::format("cannot use the GPU: {}", api.describe(rc)));
  }
  api.ctx_set_current(context);
  int l2_bytes = 0;
  api.device_get_attribute(&l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device);
  CUuuid raw_uuid{};
  api.device_get_uuid(&raw_uuid, device);
  const std::string device_uuid = cuda::format_uuid(raw_uuid);

  const std::string source = read_text_file(job.kernel_source, "kernel file");
  const kernel::kernel_plan plan = kernel::plan_kernel(job.kernel_source, source, kernel::parse_backend_name(job.backend),
                                                       job.dims, job.ptr_size, job.own_flag_names);
  json result = json{{"kopt_version", version_string}, {"status", "ok"}, {"reason", ""}};
  version kernel_version = bind(api, load_solve(job.kernel_library, "kernel"), plan);
  if (job.profile_mode) return run_profile_window(api, plan, kernel_version, job, result);
  cuda::activity_recorder* recorder = cuda::activity_recorder::start(&problem);
  if (recorder == nullptr) throw error(problem);

  std::optional<version> reference;
  if (!job.reference_library.empty()) {
    const auto reference_signature =
        kernel::parse_signature(read_text_file(job.reference_source, "reference file"), job.reference_source);
    if (reference_signature.parameters.size() != plan.solve->parameters.size()) {
      throw error(fmt::format("the reference {} has a solve() with {} parameters, the kernel {}: they must match",
                              job.reference_source, reference_signature.parameters.size(),
                              plan.solve->parameters.size()));
    }
    reference = bind(api, load_solve(job.reference_library, "reference"), plan);
  }

  json correctness = json{{"checked", reference.has_value()}, {"passed", nullptr}};
  json seeds = json::array();
  bool all_passed = true;
  try {
    const auto check_seed = [&](std::uint64_t seed, const char* when) {
      bool passed = false;
      const json outputs = validate_seed(api, plan, kernel_version, reference ? &*reference : nullptr, seed, job, passed);
      seeds.push_back(json{{"seed", seed}, {"when", when}, {"passed", passed}, {"outputs", outputs}});
      all_passed = all_passed && passed;
      return passed;
    };
    for (int i = 0; i < job.validation_seeds; ++i) {
      if (!check_seed(job.seed + static_cast<std::uint64_t>(i), "before timing")) break;
    }
    if (reference && !all_passed) {
      result["status"] = "failed";
      for (const auto& o : seeds.back()["outputs"]) {
        if (o["passed"].get<bool>()) continue;
        result["reason"] = fmt::format("validation failed (seed {}): {}{}", seeds.back()["seed"].get<std::uint64_t>(),
                                       o["summary"].get<std::string>(), read_before_write_hint(plan, o));
        break;
      }
    } else {
      std::unique_ptr<l2_flusher> flusher;
      if (!job.hot) flusher = std::make_unique<l2_flusher>(api, static_cast<std::size_t>(l2_bytes));
      result["protocol"] = job.hot ? "hot: caches as the previous call left them"
                                   : fmt::format("cold: L2 flushed before every sample by reading {}",
                                                 format_bytes(2.0 * l2_bytes));
      result["kernel"] = time_version(api, *recorder, flusher.get(), kernel_version, "kernel", job, device_uuid);
      if (reference) {
        result["reference"] = time_version(api, *recorder, flusher.get(), *reference, "reference", job, device_uuid);
        const double kernel_median = result["kernel"]["median_ms"].get<double>();
        result["speedup_vs_reference"] =
            kernel_median > 0 ? result["reference"]["median_ms"].get<double>() / kernel_median : 0;
        // Speedup = 1 / (kernel median / reference median): its interval from the bootstrap of
        // that ratio, and a verdict that calls "faster" only beyond the noise.
        const auto kernel_samples = result["kernel"]["samples_ms"].get<std::vector<double>>();
        const auto reference_samples = result["reference"]["samples_ms"].get<std::vector<double>>();
        const measure::comparison c = measure::compare_samples(reference_samples, kernel_samples);
        if (c.ratio_ci95.low > 0) {
          result["speedup_vs_reference_ci95"] = json::array({1.0 / c.ratio_ci95.high, 1.0 / c.ratio_ci95.low});
        }
        result["kernel_vs_reference"] = measure::to_json(c);
      }
      // Fresh inputs after timing: a kernel that cached its result fails here.
      if (!check_seed(job.seed + 1000003, "after timing") && reference) {
        result["status"] = "failed";
        result["reason"] = "validation failed on fresh inputs after timing (does the kernel reuse earlier results?)";
      }
    }
  } catch (const kernel_failure& failure) {
    result["status"] = failure.status;
    result["reason"] = failure.reason;
    all_passed = false;
  }
  if (reference) correctness["passed"] = all_passed;
  // The Python toolkit's fields: one atol/rtol (the first output's) and the output count.
  std::size_t outputs = 0;
  for (const auto& b : plan.buffers) {
    if (b.role == buffer_role::in) continue;
    if (outputs++ == 0) {
      const validate::tolerance tol =
          validate::resolve_tolerance(b.param.element, {job.atol, job.rtol, std::nullopt, std::nullopt});
      correctness["atol"] = tol.atol;
      correctness["rtol"] = tol.rtol;
    }
  }
  correctness["output_tensor_count"] = outputs;
  correctness["seeds"] = seeds;
  result["correctness"] = correctness;
  return result;
}

}  // namespace kopt::harness
