#include "harness/bench_run.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/version.h"
#include "cuda/cupti_activity.h"
#include "cuda/driver_api.h"
#include "harness/device_buffers.h"
#include "harness/gpu_sharing.h"
#include "harness/input_fill.h"
#include "harness/l2_flush.h"
#include "harness/poison.h"
#include "harness/python_reference.h"
#include "harness/result_fields.h"
#include "harness/sampling.h"
#include "harness/solve_call.h"
#include "kernel/buffer_plan.h"
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

buffer_contents host_inputs(const kernel::kernel_plan& plan, std::uint64_t seed) {
  buffer_contents contents(plan.buffers.size());
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == buffer_role::out) continue;
    contents[i].resize(static_cast<std::size_t>(b.bytes));
    fill_input(contents[i], b.param.element, b.values, buffer_seed(seed, b.param.name));
  }
  return contents;
}

// Where the expected outputs come from: the reference's bytes of every non-input buffer, for
// one seed's contents (entries of input buffers stay empty).
using reference_outputs = std::function<buffer_contents(std::uint64_t seed, const buffer_contents& contents)>;

// A native reference runs here, on its own buffers, after the kernel.
reference_outputs native_reference(const cuda::driver_api& api, const kernel::kernel_plan& plan, version& reference) {
  return [&api, &plan, &reference](std::uint64_t, const buffer_contents& contents) {
    reference.buffers->prepare(contents);
    run_once(api, reference, "reference");
    buffer_contents outputs(plan.buffers.size());
    for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
      if (plan.buffers[i].role != buffer_role::in) outputs[i] = reference.buffers->download(i);
    }
    return outputs;
  };
}

// Validates on one seed; returns the per-output comparisons (throws kernel_failure on a
// fault, a damaged guard or a modified input). Without a reference only guards and inputs
// are checked.
json validate_seed(const cuda::driver_api& api, const kernel::kernel_plan& plan, version& kernel_version,
                   const reference_outputs& reference, std::uint64_t seed, const buffer_contents& contents,
                   const validate::tolerance_overrides& tolerances, bool& passed) {
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
  if (!reference) return outputs;
  const buffer_contents expected = reference(seed, contents);
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == buffer_role::in) continue;
    const validate::tolerance tol = validate::resolve_tolerance(b.param.element, tolerances);
    const auto comparison = validate::compare_output(b.param.name, b.param.element, kernel_version.buffers->download(i),
                                                     expected[i], poison_for(b.param.element).element_bits, tol);
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

sampling_options sampling_of(const bench_job& job) {
  return {job.warmup, job.repeat, job.min_seconds, job.max_seconds, job.target_relative_half_width};
}

json time_version(const cuda::driver_api& api, cuda::activity_recorder& recorder, l2_flusher* flusher,
                  version& v, const buffer_contents& inout_contents, const char* who,
                  const bench_job& job, const std::string& device_uuid) {
  const sampling_options options = sampling_of(job);
  // inout buffers get their seeded contents back before every sample: a kernel whose time
  // depends on the data (y += a*x growing without bound) is timed on the same data each time.
  const auto restore_inout = [&] {
    for (std::size_t i = 0; i < inout_contents.size(); ++i) {
      if (!inout_contents[i].empty()) v.buffers->upload(i, inout_contents[i]);
    }
  };
  try {
    return sample_gpu_time(api, recorder, flusher, [&] { v.call->invoke(); }, options, device_uuid, restore_inout);
  } catch (const error& e) {
    throw kernel_failure{"crashed", fmt::format("the {} failed while being timed: {}", who, e.headline())};
  }
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

// The Python reference's outputs for every seed, and its timing, from kopt's Python runner.
// Its data goes through a private folder that is removed afterwards.
python_reference_result run_python_reference_job(const bench_job& job, const kernel::kernel_plan& plan,
                                                  const std::map<std::uint64_t, buffer_contents>& seed_inputs) {
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
  request.seeds = &seed_inputs;
  request.timing = reference_timing_request{job.seed, job.hot, sampling_of(job)};
  struct cleanup {
    std::filesystem::path dir;
    ~cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } remove_afterwards{request.work_dir};
  return run_python_reference(request);
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

  constexpr std::uint64_t after_timing_seed_offset = 1000003;
  const auto validation_seeds = [&] {
    std::vector<std::uint64_t> seeds;
    for (int i = 0; i < job.validation_seeds; ++i) seeds.push_back(job.seed + static_cast<std::uint64_t>(i));
    seeds.push_back(job.seed + after_timing_seed_offset);
    return seeds;
  }();

  // Each seed's inputs are made once. The Python reference needs every seed's before the
  // kernel's first run; otherwise a seed's inputs are made when its turn comes.
  std::map<std::uint64_t, buffer_contents> seed_inputs;
  const auto take_inputs = [&](std::uint64_t seed) {
    const auto made = seed_inputs.find(seed);
    if (made == seed_inputs.end()) return host_inputs(plan, seed);
    buffer_contents contents = std::move(made->second);
    seed_inputs.erase(made);
    return contents;
  };

  std::optional<version> native;
  std::optional<python_reference_result> python;
  reference_outputs reference;
  validate::tolerance_overrides tolerances{job.atol, job.rtol, std::nullopt, std::nullopt};
  if (!job.reference_library.empty()) {
    const auto reference_signature =
        kernel::parse_signature(read_text_file(job.reference_source, "reference file"), job.reference_source);
    if (reference_signature.parameters.size() != plan.solve->parameters.size()) {
      throw error(fmt::format("the reference {} has a solve() with {} parameters, the kernel {}: they must match",
                              job.reference_source, reference_signature.parameters.size(),
                              plan.solve->parameters.size()));
    }
    native = bind(api, load_solve(job.reference_library, "reference"), plan);
    reference = native_reference(api, plan, *native);
  } else if (has_python_reference(job)) {
    for (const std::uint64_t seed : validation_seeds) seed_inputs[seed] = host_inputs(plan, seed);
    python = run_python_reference_job(job, plan, seed_inputs);
    tolerances.reference_atol = python->atol;
    tolerances.reference_rtol = python->rtol;
    reference = [&python](std::uint64_t seed, const buffer_contents&) { return python->outputs.at(seed); };
    result["reference_runner"] = json{{"torch", python->torch}, {"overhead_s", python->overhead}};
  }

  json correctness = json{{"checked", static_cast<bool>(reference)}, {"passed", nullptr}};
  json seeds = json::array();
  bool all_passed = true;
  // The first seed's inout contents (the first seed is job.seed), restored before every sample.
  buffer_contents timing_inout;
  try {
    const auto check_seed = [&](std::uint64_t seed, const char* when) {
      bool passed = false;
      buffer_contents contents = take_inputs(seed);
      const json outputs = validate_seed(api, plan, kernel_version, reference, seed, contents, tolerances, passed);
      seeds.push_back(json{{"seed", seed}, {"when", when}, {"passed", passed}, {"outputs", outputs}});
      all_passed = all_passed && passed;
      if (seed == job.seed) {
        for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
          if (plan.buffers[i].role != buffer_role::inout) contents[i].clear();
        }
        timing_inout = std::move(contents);
      }
      return passed;
    };
    for (int i = 0; i < job.validation_seeds; ++i) {
      if (!check_seed(validation_seeds[static_cast<std::size_t>(i)], "before timing")) break;
    }
    if (reference && !all_passed) {
      result["status"] = "failed";
      for (const auto& o : seeds.back()["outputs"]) {
        if (o["passed"].get<bool>()) continue;
        result["reason"] = fmt::format("validation failed (seed {}): {}{}", seeds.back()["seed"].get<std::uint64_t>(),
                                       o["summary"].get<std::string>(), read_before_write_hint(plan, o));
        break;
      }
    } else if (!job.validation_only) {
      cuda::activity_recorder* recorder = cuda::activity_recorder::start(&problem);
      if (recorder == nullptr) throw error(problem);
      std::unique_ptr<l2_flusher> flusher;
      if (!job.hot) flusher = std::make_unique<l2_flusher>(api, static_cast<std::size_t>(l2_bytes));
      result["protocol"] = protocol_description(job.hot, static_cast<std::size_t>(l2_bytes));
      result["warnings"] = json::array();
      if (const auto warning = other_processes_warning(device_uuid)) result["warnings"].push_back(*warning);
      result["kernel"] = time_version(api, *recorder, flusher.get(), kernel_version, timing_inout, "kernel", job, device_uuid);
      if (native) {
        result["reference"] = time_version(api, *recorder, flusher.get(), *native, timing_inout, "reference", job, device_uuid);
      } else if (python && !python->timing.is_null()) {
        result["reference"] = python->timing;
      }
      add_timing_conclusions(result);
      // Fresh inputs after timing: a kernel that cached its result fails here.
      if (!check_seed(validation_seeds.back(), "after timing") && reference) {
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
      const validate::tolerance tol = validate::resolve_tolerance(b.param.element, tolerances);
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
