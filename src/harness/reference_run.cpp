#include "harness/reference_run.h"

#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "core/phase_clock.h"
#include "cuda/cupti_activity.h"
#include "harness/bench_version.h"
#include "harness/buffer_memory.h"
#include "harness/device_buffers.h"
#include "harness/evidence_files.h"
#include "harness/gpu_context.h"
#include "harness/input_generator.h"
#include "harness/job_problem.h"
#include "harness/kernel_failure.h"
#include "harness/l2_flush.h"
#include "harness/output_checks.h"
#include "harness/python_reference_job.h"
#include "harness/runner_phases.h"
#include "harness/sampling.h"
#include "harness/seed_inputs.h"

namespace kopt::harness {
namespace {

// The Python runner's key for an evidence key: the seed itself, or a checked call's index
// with a bit no seed of kopt's sets.
constexpr std::uint64_t checked_call_bit = std::uint64_t{1} << 62;
std::uint64_t runner_key(const evidence_key& key) {
  return key.kind == evidence_kind::seed ? key.value : (checked_call_bit | key.value);
}

// What the reference's process works with: the GPU (none for a host-only job), the memory its
// buffers live in, and how each key's inputs are made again.
struct reference_side {
  std::optional<gpu_context> gpu;
  std::unique_ptr<buffer_memory> memory;
  std::unique_ptr<input_generator> generator;  // null without a GPU
  std::unique_ptr<seed_inputs> seeds;

  reference_side(const bench_job& job, const job_problem& problem) {
    if (!job.host_only) {
      gpu = open_gpu_context();
      memory = make_device_memory(*gpu->api);
      generator = std::make_unique<input_generator>(*gpu->api, problem.plan().buffers);
    } else {
      memory = make_host_memory();
    }
    // A Triton problem's seeds are setup()'s tensors: checked against the parent's digests
    // here, since the kernel's process could have reached the files.
    if (problem.triton() != nullptr) {
      seeds = problem_seed_inputs(*problem.triton(), true);
    } else if (generator) {
      seeds = generated_seed_inputs(*generator, problem.plan());
    } else {
      throw error("a CUDA kernel's reference needs the GPU");
    }
  }

  // The key's inputs in `target`, its outputs poisoned, ready for the reference's call.
  void prepare(const kernel::kernel_plan& plan, device_buffers& target, std::uint64_t run_seed,
               const evidence_key& key) {
    prepare_key_inputs(*seeds, generator.get(), plan, target, run_seed, key);
    memory->synchronize("making the kernel's inputs again");
  }
};

// Whether the runner makes the keys' inputs itself (python_reference_job.h): a CUDA kernel's
// problem on the GPU, whose inputs come from kopt's generator. A Triton problem's come from
// setup()'s files, and a run without a GPU has no generator.
bool runner_makes_inputs(const bench_job& job, const job_problem& problem) {
  return problem.triton() == nullptr && !job.host_only;
}

// The reference's fields from what the runner reported, on either data path.
void add_python_result(child_report& result, const reference_runner_result& python) {
  if (python.timing) {
    result.reference = python.timing->timing;
    for (const std::string& warning : python.timing->warnings) result.warnings.push_back("reference timing: " + warning);
  }
  result.reference_runner = runner_facts{python.torch, python.overhead};
  result.reference_tolerance = tolerance_pair{python.atol, python.rtol};
}

void run_python(child_report& result, reference_side& side, const bench_job& job, const job_problem& problem,
                phase_clock& clock) {
  const kernel::kernel_plan& plan = problem.plan();
  device_buffers scratch(*side.memory, plan.buffers);
  std::map<std::uint64_t, buffer_contents> inputs;
  // The runner writes each key's outputs straight into the key's evidence folder, named as the
  // verdict reads them (evidence_files.h): they are not read back and written again here.
  std::map<std::uint64_t, std::filesystem::path> folders;
  for (const evidence_key& key : validation_of(job).evidence) {
    side.prepare(plan, scratch, job.seed, key);
    inputs[runner_key(key)] = download_inputs(plan, scratch);
    folders[runner_key(key)] = std::filesystem::path(evidence_dir_of(job)) / folder_name(key);
  }
  clock.done("making_inputs");
  const python_reference_result python = run_python_reference_job(job, plan, problem.triton(), inputs, &folders);
  clock.done("python_runner");
  add_python_result(result, python.answer);
}

void run_native(child_report& result, reference_side& side, const bench_job& job, const kernel::kernel_plan& plan,
                phase_clock& clock) {
  if (!side.gpu) throw error("a native reference needs the GPU");
  const gpu_context& gpu = *side.gpu;
  const cuda::driver_api& api = *gpu.api;
  bench_version reference = bind_version(*side.memory, load_solve(job.reference_library, "reference"), plan);
  for (const evidence_key& key : validation_of(job).evidence) {
    side.prepare(plan, *reference.buffers, job.seed, key);
    run_once(reference, "reference");
    write_evidence(evidence_dir_of(job), key, plan, *reference.buffers);
  }
  clock.done("outputs");
  if (!is_timed(job)) return;
  std::string trouble;
  cuda::activity_recorder* recorder = cuda::activity_recorder::start(&trouble);
  if (recorder == nullptr) throw error(trouble);
  std::unique_ptr<l2_flusher> flusher;
  if (!job.sampling.hot) flusher = std::make_unique<l2_flusher>(api, static_cast<std::size_t>(gpu.l2_bytes));
  sampling_hooks hooks;  // the kernel's protocol: fresh inputs and poisoned outputs before every call
  hooks.before_each = [&](std::uint64_t call) {
    prepare_call_inputs(*side.generator, plan, *reference.buffers, job.seed, call);
  };
  try {
    result.reference = sample_gpu_time(api, *recorder, nullptr, flusher.get(), [&] { reference.call->invoke(); },
                                          sampling_of(job), gpu.uuid, hooks);
  } catch (const error& e) {
    throw kernel_failure{run_status::crashed, fmt::format("the reference failed while being timed: {}", e.headline())};
  }
  clock.done("timing");
}

}  // namespace

child_report run_reference_job(const bench_job& job) {
  phase_clock clock;
  const job_problem problem(job);
  child_report result = report_of(run_status::ok);
  if (has_python_reference(job) && runner_makes_inputs(job, problem)) {
    // This process never touches the GPU: the runner makes its own context and inputs.
    clock.done("planning");
    add_python_result(result, run_python_reference_keys(job, problem.plan()).answer);
    clock.done("python_runner");
    result.phases_s = with_runner_timing(clock.phases(), result.reference_runner->overhead_s);
    return result;
  }
  reference_side side(job, problem);
  clock.done("gpu_context_and_planning");
  try {
    if (has_python_reference(job)) {
      run_python(result, side, job, problem, clock);
    } else {
      run_native(result, side, job, problem.plan(), clock);
    }
  } catch (const kernel_failure& failure) {
    result.status = failure.status;
    result.reason = failure.reason;
  } catch (const problem_changed& changed) {
    // The kernel's fault, not the reference's: the parent fails the kernel with this.
    result.status = run_status::failed;
    result.reason = changed.reason;
    result.kernel_at_fault = true;
  }
  const std::optional<runner_overhead> overhead =
      result.reference_runner ? std::optional<runner_overhead>(result.reference_runner->overhead_s) : std::nullopt;
  result.phases_s = with_runner_timing(clock.phases(), overhead);
  return result;
}

}  // namespace kopt::harness
