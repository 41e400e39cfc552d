#include "harness/kernel_run.h"

#include <memory>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "core/phase_clock.h"
#include "core/version.h"
#include "cuda/cupti_activity.h"
#include "cuda/launch_attribution.h"
#include "harness/bench_version.h"
#include "harness/device_buffers.h"
#include "harness/evidence_files.h"
#include "harness/gpu_context.h"
#include "harness/gpu_sharing.h"
#include "harness/input_fill.h"
#include "harness/input_generator.h"
#include "harness/integrity_flags.h"
#include "harness/job_problem.h"
#include "harness/kernel_failure.h"
#include "harness/l2_flush.h"
#include "harness/loaded_libraries.h"
#include "harness/output_checks.h"
#include "harness/physical_floor.h"
#include "harness/python_reference_job.h"
#include "harness/result_fields.h"
#include "harness/sampling.h"
#include "harness/timed_call_checks.h"

namespace kopt::harness {
namespace {
using kernel::buffer_role;

std::uint64_t output_bytes(const kernel::kernel_plan& plan) {
  std::uint64_t bytes = 0;
  for (const auto& b : plan.buffers) {
    if (b.role != buffer_role::in) bytes += static_cast<std::uint64_t>(b.bytes);
  }
  return bytes;
}

// Warm-up, then exactly `profile_calls` calls inside the profiler window: no validation, no
// flush kernel in it.
json run_profile_window(const cuda::driver_api& api, const kernel::kernel_plan& plan, bench_version& kernel_version,
                        const bench_job& job, json& result) {
  try {
    kernel_version.buffers->prepare(seed_inputs(plan, job.seed));
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

json run_kernel_job(const bench_job& job) {
  phase_clock clock;
  const gpu_context gpu = open_gpu_context();
  const cuda::driver_api& api = *gpu.api;
  const job_problem problem(job);
  const kernel::kernel_plan& plan = problem.plan();
  json result = json{{"kopt_version", version_string}, {"status", "ok"}, {"reason", ""}, {"problem_source", problem.source()}};
  if (!problem.mismatch().empty()) {
    result["status"] = "failed";
    result["reason"] = fmt::format("problem mismatch: {}; the problem belongs to the reference (drop the kernel's "
                                   "annotation or make it declare the same)",
                                   problem.mismatch());
    return result;
  }
  bench_version kernel_version = bind_version(api, load_solve(job.kernel_library, "kernel"), plan);
  if (job.profile_mode) return run_profile_window(api, plan, kernel_version, job, result);
  clock.done("gpu_context_and_loading");

  // Kept only when there is a reference to compare with: the parent made the folder for it.
  const bool keep = !job.evidence_dir.empty();
  std::vector<evidence_key> evidence;
  const auto keep_outputs = [&](const evidence_key& key) {
    if (keep) write_evidence(job.evidence_dir, key, plan, download_outputs(plan, *kernel_version.buffers));
    evidence.push_back(key);
  };
  std::vector<std::string> libraries;
  bool libraries_read = false;
  input_generator generator(api, plan.buffers);
  const auto run_seed = [&](std::uint64_t seed, const char* when) {
    const evidence_key key{evidence_key::kind::seed, seed, when};
    device_buffers& buffers = *kernel_version.buffers;
    buffers.reset_to_canary();
    prepare_key_inputs(generator, plan, buffers, job.seed, key);
    synchronize(api, "making a validation seed's inputs");
    const buffer_contents contents = download_inputs(plan, buffers);
    run_once(api, kernel_version, "kernel");
    if (!libraries_read) {
      libraries = loaded_compute_libraries();
      libraries_read = true;
    }
    if (const auto found = check_guards_and_inputs(plan, buffers, contents)) throw kernel_failure{"failed", *found};
    keep_outputs(key);
  };

  try {
    for (int i = 0; i < job.validation_seeds; ++i) run_seed(job.seed + static_cast<std::uint64_t>(i), "before timing");
    clock.done("validation");
    if (!job.validation_only) {
      std::string trouble;
      cuda::activity_recorder* recorder = cuda::activity_recorder::start(&trouble);
      if (recorder == nullptr) throw error(trouble);
      cuda::launch_attribution* attribution = cuda::launch_attribution::start(&trouble);
      if (attribution == nullptr) throw error(trouble);
      attribution->clear();
      std::unique_ptr<l2_flusher> flusher;
      if (!job.hot) flusher = std::make_unique<l2_flusher>(api, static_cast<std::size_t>(gpu.l2_bytes));
      device_buffers scratch(api, plan.buffers);
      timed_call_checks::evidence_sink sink;
      if (keep) {
        sink = [&](std::uint64_t call, const buffer_contents& outputs) {
          const evidence_key key{evidence_key::kind::call, call, "timed"};
          write_evidence(job.evidence_dir, key, plan, outputs);
          evidence.push_back(key);
        };
      }
      timed_call_checks checks(api, plan, *kernel_version.buffers, scratch, generator, job.seed, sink);
      result["protocol"] = protocol_description(job.hot, static_cast<std::size_t>(gpu.l2_bytes));
      result["warnings"] = json::array();
      if (const auto warning = other_processes_warning(gpu.uuid)) result["warnings"].push_back(*warning);

      sampling_options judged = sampling_of(job);
      judged.judge_work = true;
      judged.output_bytes = output_bytes(plan);
      std::uint64_t last_call = 0;
      sampling_hooks hooks;
      hooks.before_each = [&](std::uint64_t call) { checks.prepare_call(*kernel_version.buffers, call); };
      hooks.after_each = [&](std::uint64_t call, const call_sample&) {
        last_call = call;
        checks.after_call(call);
      };
      hooks.wants_more = [&] { return checks.wants_more(); };
      try {
        result["kernel"] = sample_gpu_time(api, *recorder, attribution, flusher.get(),
                                           [&] { kernel_version.call->invoke(); }, judged, gpu.uuid, hooks);
      } catch (const error& e) {
        throw kernel_failure{"crashed", fmt::format("the kernel failed while being timed: {}", e.headline())};
      }
      checks.finish(last_call);
      clock.done("timing");
      result["timed_call_checks"] = checks.summary();
      add_integrity_flags(result, libraries);
      if (!job.hot) {
        const double peak = device_peak_dram_bandwidth(gpu);
        result["physical_floor"] = json{{"problem_bytes", problem_bytes(plan)}, {"peak_dram_bytes_per_s", peak}};
        if (const auto warning = floor_warning(headline_ms(result["kernel"]), problem_bytes(plan), peak)) {
          result["warnings"].push_back(*warning);
        }
      }
      // Fresh inputs after timing, as one more validation seed.
      constexpr std::uint64_t after_timing_seed_offset = 1000003;
      run_seed(job.seed + after_timing_seed_offset, "after timing");
      clock.done("after_timing");
    }
  } catch (const kernel_failure& failure) {
    result["status"] = failure.status;
    result["reason"] = failure.reason;
  }
  result["evidence"] = to_json(evidence);
  result["phases_s"] = clock.phases();
  return result;
}

}  // namespace kopt::harness
