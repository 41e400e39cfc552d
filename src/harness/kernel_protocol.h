#pragma once
// The one bench protocol, for every backend: the version under test (a CUDA kernel's solve(),
// a Triton module's run_kernel()) is run on the validation seeds, timed (every timed call on
// fresh inputs, some checked at random), and run on fresh inputs once more; guards and inputs
// are checked here, and its outputs for each of those inputs go to the parent's evidence
// folder, where the parent compares them with the reference's. What differs between backends
// is only how the version is called and where a validation seed's inputs come from
// (seed_inputs.h). CUDA kernels reach it through `kopt harness` (kernel_run.h), Triton modules
// through kopt's Python runner and libkopt_harness_abi.

#include <string>
#include <vector>

#include "harness/child_report.h"
#include "core/phase_clock.h"
#include "harness/bench_job.h"
#include "harness/bench_version.h"
#include "harness/gpu_context.h"
#include "harness/input_generator.h"
#include "harness/seed_inputs.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct protocol_setting {
  const bench_job& job;
  const kernel::kernel_plan& plan;
  bench_version& version;           // bound to its buffers
  seed_inputs& seeds;
  input_generator* generator;       // null without a GPU: then validation only
  const gpu_context* gpu;           // null without a GPU
  std::vector<std::string> library_baseline;  // compute libraries loaded before the version was
};

// The validation seeds a job's version is run on, in order: `validation_seeds` from the job's
// seed before timing, then one more after it.
std::vector<std::uint64_t> validation_seeds_of(const bench_job& job);

// Fills the report (status, reason, kernel timing, timed calls, warnings, evidence, ...). What
// the version did wrong is the report's status; environment problems throw kopt::error.
void run_protocol(const protocol_setting& setting, child_report& result, phase_clock& clock);

// Warm-up, then exactly `profile_calls` calls between cuProfilerStart and cuProfilerStop (for
// ncu --profile-from-start off), on the first validation seed's inputs: no validation, no
// flush kernel, no input generation inside the window. Nothing is timed or judged.
void run_profile_window(const protocol_setting& setting, child_report& result);

}  // namespace kopt::harness
