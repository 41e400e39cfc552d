#pragma once
// The steps of an iteration that need a GPU (preflight, bench, profile, analysis, a comparison
// in turns), as functions the loop is given: the real ones measure through a worker, and CPU
// tests drive the whole orchestration with recorded results in their place.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "env/gpu_probe.h"
#include "env/preflight.h"
#include "pipeline/analysis_pipeline.h"
#include "pipeline/bench_pipeline.h"
#include "pipeline/comparison_pipeline.h"
#include "pipeline/measuring_worker.h"
#include "pipeline/profile_pipeline.h"
#include "tune/tune_run.h"

namespace kopt::loop {

struct gpu_steps;

struct loop_services {
  std::function<env::preflight_report(const env::preflight_options&)> preflight;
  std::function<pipeline::bench_outcome(const pipeline::bench_request&)> bench;
  std::function<pipeline::profile_outcome(const pipeline::profile_request&)> profile;
  std::function<pipeline::analysis_outcome(const pipeline::analysis_request&)> analyze;
  // Comparing a version with its parent in turns (comparison_pipeline.h); empty: from their
  // bench samples.
  std::function<pipeline::turns_outcome(const pipeline::comparison_request&)> compare;
  // kopt tune on the settings' GPU (loop --tune); empty: versions cannot be tuned.
  std::function<tune::tune_outcome(const tune::tune_request&)> tune;
  // The GPUs as the measuring worker sees them now; empty: not asked (a round then takes any
  // error while measuring for the run's, never for its GPU's).
  std::function<env::gpu_probe_result()> probe_gpus;
  // The other GPUs a round of candidates measures on at the same time (--gpus), each with steps
  // of its own; empty: the round's candidates take their turns on the settings' GPU.
  std::vector<gpu_steps> other_gpus;
};

// One more GPU for a round: its ordinal and the steps that measure on it.
struct gpu_steps {
  int gpu = 0;
  loop_services services;
};

// The real steps, measuring through `worker` (which must outlive the services).
loop_services gpu_services(pipeline::measuring_worker& worker);
// The same, the steps owning their worker (another GPU's, for a round on several).
loop_services gpu_services(std::shared_ptr<pipeline::measuring_worker> worker);

// What the step is doing, for a progress line ("bench", "profile", ...).
using step_progress = std::function<void(const std::string&)>;

}  // namespace kopt::loop
