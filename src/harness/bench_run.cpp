#include "harness/bench_run.h"


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
#include "cuda/launch_attribution.h"
#include "harness/bench_version.h"
#include "harness/device_buffers.h"
#include "harness/integrity_flags.h"
#include "harness/gpu_sharing.h"
#include "harness/input_fill.h"
#include "harness/input_generator.h"
#include "harness/kernel_failure.h"
#include "harness/l2_flush.h"
#include "harness/loaded_libraries.h"
#include "harness/output_checks.h"
#include "harness/physical_floor.h"
#include "harness/poison.h"
#include "harness/problem_source.h"
#include "harness/python_reference.h"
#include "harness/python_reference_job.h"
#include "harness/result_fields.h"
#include "harness/sampling.h"
#include "harness/solve_call.h"
#include "harness/timed_call_checks.h"
#include "kernel/buffer_plan.h"
#include "validate/tolerance.h"

namespace kopt::harness {
namespace {
using kernel::buffer_role;

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

// The native reference runs in this process on its own buffers, after the kernel, with the
// inputs already in them; returns its outputs.
buffer_contents run_native_reference(const cuda::driver_api& api, const kernel::kernel_plan& plan,
                                     bench_version& reference) {
  run_once(api, reference, "reference");
  return download_outputs(plan, *reference.buffers);
}

// An `out` buffer is poisoned with NaN before each run: a kernel that reads it before writing
// it (y += ...) turns the poison into NaNs. Suggest the annotation that gives it real data.
std::string read_before_write_hint(const kernel::kernel_plan& plan, const json& outputs) {
  for (const json& comparison : outputs) {
    if (comparison["passed"].get<bool>()) continue;
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
  return "";
}

std::uint64_t output_bytes(const kernel::kernel_plan& plan) {
  std::uint64_t bytes = 0;
  for (const auto& b : plan.buffers) {
    if (b.role != buffer_role::in) bytes += static_cast<std::uint64_t>(b.bytes);
  }
  return bytes;
}

// Warm-up, then exactly `profile_calls` calls inside the profiler window: no reference, no
// validation, no flush kernel in it.
json run_profile_window(const cuda::driver_api& api, const kernel::kernel_plan& plan, bench_version& kernel_version,
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

// The reference's solve() must take the same parameters as the kernel's.
void require_same_parameters(const kernel::kernel_plan& kernel, const kernel::kernel_plan& reference,
                             const std::string& reference_path) {
  const auto& k = kernel.solve->parameters;
  const auto& r = reference.solve->parameters;
  bool same = k.size() == r.size();
  for (std::size_t i = 0; same && i < k.size(); ++i) {
    same = k[i].name == r[i].name && k[i].element == r[i].element && k[i].is_pointer == r[i].is_pointer;
  }
  if (!same) {
    throw error(fmt::format("the reference {} has a solve() whose parameters differ from the kernel's (names, types "
                            "and order must match)",
                            reference_path));
  }
}

// Synthetic seed keys for checked timed calls handed to the Python runner.
constexpr std::uint64_t checked_call_key = std::uint64_t{1} << 62;

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

  const auto backend = kernel::parse_backend_name(job.backend);
  const kernel::kernel_plan kernel_plan = kernel::plan_kernel(job.kernel_source, read_text_file(job.kernel_source, "kernel file"),
                                                              backend, job.dims, job.ptr_size, job.own_flag_names);
  std::optional<kernel::kernel_plan> reference_plan;
  if (!job.reference_library.empty()) {
    reference_plan = kernel::plan_kernel(job.reference_source, read_text_file(job.reference_source, "reference file"),
                                         backend, job.dims, job.ptr_size, job.own_flag_names);
    require_same_parameters(kernel_plan, *reference_plan, job.reference_source);
  }
  const problem_choice chosen = choose_problem(kernel_plan, reference_plan ? &*reference_plan : nullptr);
  const kernel::kernel_plan& plan = *chosen.plan;
  json result = json{{"kopt_version", version_string}, {"status", "ok"}, {"reason", ""}, {"problem_source", chosen.source}};
  json correctness = json{{"checked", !job.reference_library.empty() || has_python_reference(job)}, {"passed", nullptr}};
  if (!chosen.mismatch.empty()) {
    result["status"] = "failed";
    result["reason"] = fmt::format("problem mismatch: {}; the problem belongs to the reference (drop the kernel's "
                                   "annotation or make it declare the same)",
                                   chosen.mismatch);
    result["correctness"] = correctness;
    return result;
  }
  bench_version kernel_version = bind_version(api, load_solve(job.kernel_library, "kernel"), plan);
  if (job.profile_mode) return run_profile_window(api, plan, kernel_version, job, result);

  constexpr std::uint64_t after_timing_seed_offset = 1000003;
  const bool python_reference = has_python_reference(job);
  std::optional<bench_version> native;
  if (!job.reference_library.empty()) native = bind_version(api, load_solve(job.reference_library, "reference"), plan);
  validate::tolerance_overrides tolerances{job.atol, job.rtol, std::nullopt, std::nullopt};

  json seeds = json::array();
  bool all_passed = true;
  std::vector<std::string> libraries;
  bool libraries_read = false;
  // With a Python reference, the kernel's runs are kept here and compared once the runner
  // (which starts after all of the kernel's GPU work) has produced the expected outputs.
  std::map<std::uint64_t, buffer_contents> runner_inputs;
  std::vector<std::pair<std::uint64_t, std::string>> deferred_seeds;  // seed, when
  std::map<std::uint64_t, buffer_contents> deferred_seed_outputs;
  std::optional<timed_call_checks> checks;
  std::unique_ptr<device_buffers> scratch;
  std::unique_ptr<input_generator> generator;

  const auto check_seed = [&](std::uint64_t seed, const char* when) {
    const buffer_contents contents = host_inputs(plan, seed);
    kernel_version.buffers->prepare(contents);
    run_once(api, kernel_version, "kernel");
    if (!libraries_read) {  // before any reference ran in this process
      libraries = loaded_compute_libraries();
      libraries_read = true;
    }
    if (const auto found = check_guards_and_inputs(plan, *kernel_version.buffers, contents)) {
      throw kernel_failure{"failed", *found};
    }
    buffer_contents outputs = download_outputs(plan, *kernel_version.buffers);
    if (python_reference) {
      runner_inputs[seed] = contents;
      deferred_seed_outputs[seed] = std::move(outputs);
      deferred_seeds.emplace_back(seed, when);
      return true;
    }
    if (!native) {
      seeds.push_back(json{{"seed", seed}, {"when", when}, {"passed", true}, {"outputs", json::array()}});
      return true;
    }
    native->buffers->prepare(contents);
    const outputs_verdict verdict = compare_outputs(plan, outputs, run_native_reference(api, plan, *native), tolerances);
    seeds.push_back(json{{"seed", seed}, {"when", when}, {"passed", !verdict.failure}, {"outputs", verdict.outputs}});
    if (verdict.failure) {
      all_passed = false;
      result["status"] = "failed";
      result["reason"] = fmt::format("validation failed (seed {}): {}{}", seed, *verdict.failure,
                                     read_before_write_hint(plan, verdict.outputs));
    }
    return !verdict.failure;
  };

  try {
    bool passed = true;
    for (int i = 0; i < job.validation_seeds && passed; ++i) {
      passed = check_seed(job.seed + static_cast<std::uint64_t>(i), "before timing");
    }
    if (passed && !job.validation_only) {
      cuda::activity_recorder* recorder = cuda::activity_recorder::start(&problem);
      if (recorder == nullptr) throw error(problem);
      cuda::launch_attribution* attribution = cuda::launch_attribution::start(&problem);
      if (attribution == nullptr) throw error(problem);
      attribution->clear();
      std::unique_ptr<l2_flusher> flusher;
      if (!job.hot) flusher = std::make_unique<l2_flusher>(api, static_cast<std::size_t>(l2_bytes));
      generator = std::make_unique<input_generator>(api, plan.buffers);
      if (!native) scratch = std::make_unique<device_buffers>(api, plan.buffers);
      device_buffers& check_buffers = native ? *native->buffers : *scratch;
      timed_call_checks::reference_on_scratch reference;
      if (native) reference = [&] { return run_native_reference(api, plan, *native); };
      checks.emplace(api, plan, *kernel_version.buffers, check_buffers, *generator, job.seed, reference, python_reference,
                     tolerances);
      result["protocol"] = protocol_description(job.hot, static_cast<std::size_t>(l2_bytes));
      result["warnings"] = json::array();
      if (const auto warning = other_processes_warning(device_uuid)) result["warnings"].push_back(*warning);

      sampling_options judged = sampling_of(job);
      judged.judge_work = true;
      judged.output_bytes = output_bytes(plan);
      std::uint64_t last_call = 0;
      sampling_hooks kernel_hooks;
      kernel_hooks.before_each = [&](std::uint64_t call) { checks->prepare_call(*kernel_version.buffers, call); };
      kernel_hooks.after_each = [&](std::uint64_t call, const call_sample&) {
        last_call = call;
        checks->after_call(call);
      };
      kernel_hooks.wants_more = [&] { return checks->wants_more(); };
      try {
        result["kernel"] = sample_gpu_time(api, *recorder, attribution, flusher.get(),
                                           [&] { kernel_version.call->invoke(); }, judged, device_uuid, kernel_hooks);
      } catch (const error& e) {
        throw kernel_failure{"crashed", fmt::format("the kernel failed while being timed: {}", e.headline())};
      }
      checks->finish(last_call);
      result["timed_call_checks"] = checks->summary();
      add_integrity_flags(result, libraries);
      if (!job.hot) {
        int memory_clock_khz = 0;
        int bus_width_bits = 0;
        api.device_get_attribute(&memory_clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, device);
        api.device_get_attribute(&bus_width_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, device);
        const double peak = peak_dram_bandwidth(memory_clock_khz, bus_width_bits);
        result["physical_floor"] = json{{"problem_bytes", problem_bytes(plan)}, {"peak_dram_bytes_per_s", peak}};
        if (const auto warning = floor_warning(headline_ms(result["kernel"]), problem_bytes(plan), peak)) {
          result["warnings"].push_back(*warning);
        }
      }
      if (native) {
        sampling_hooks reference_hooks;  // the same protocol: fresh inputs, poisoned outputs
        reference_hooks.before_each = [&](std::uint64_t call) { checks->prepare_call(*native->buffers, call); };
        try {
          result["reference"] = sample_gpu_time(api, *recorder, nullptr, flusher.get(),
                                                [&] { native->call->invoke(); }, sampling_of(job), device_uuid,
                                                reference_hooks);
        } catch (const error& e) {
          throw kernel_failure{"crashed", fmt::format("the reference failed while being timed: {}", e.headline())};
        }
      }
      // Fresh inputs after timing, as one more validation seed.
      if (!check_seed(job.seed + after_timing_seed_offset, "after timing")) {
        result["reason"] = fmt::format("{} (fresh inputs after timing)", result["reason"].get<std::string>());
      }
    }
  } catch (const kernel_failure& failure) {
    result["status"] = failure.status;
    result["reason"] = failure.reason;
    all_passed = false;
  }

  if (python_reference && result["status"] == "ok") {
    if (checks) {
      for (const deferred_check& d : checks->deferred()) runner_inputs[checked_call_key | d.call] = d.inputs;
    }
    const python_reference_result python = run_python_reference_job(job, plan, runner_inputs);
    tolerances.reference_atol = python.atol;
    tolerances.reference_rtol = python.rtol;
    result["reference_runner"] = json{{"torch", python.torch}, {"overhead_s", python.overhead}};
    for (const auto& [seed, when] : deferred_seeds) {
      const outputs_verdict verdict =
          compare_outputs(plan, deferred_seed_outputs.at(seed), python.outputs.at(seed), tolerances);
      seeds.push_back(json{{"seed", seed}, {"when", when}, {"passed", !verdict.failure}, {"outputs", verdict.outputs}});
      if (verdict.failure && all_passed) {
        all_passed = false;
        result["status"] = "failed";
        result["reason"] = fmt::format("validation failed (seed {}): {}{}", seed, *verdict.failure,
                                       read_before_write_hint(plan, verdict.outputs));
      }
    }
    if (checks && all_passed) {
      for (const deferred_check& d : checks->deferred()) {
        const outputs_verdict verdict =
            compare_outputs(plan, d.kernel_outputs, python.outputs.at(checked_call_key | d.call), tolerances);
        if (verdict.failure) {
          all_passed = false;
          result["status"] = "failed";
          result["reason"] = fmt::format("timed call {} (checked at random): {}", d.call, *verdict.failure);
          break;
        }
      }
    }
    if (!python.timing.is_null() && result.contains("kernel")) result["reference"] = python.timing;
  }
  if (result["status"] == "ok" && result.contains("kernel")) add_timing_conclusions(result);

  if (correctness["checked"].get<bool>()) correctness["passed"] = all_passed && result["status"] == "ok";
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
