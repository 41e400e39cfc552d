#pragma once
// One iteration of the optimization loop, as a function: snapshot the version, bench it
// (judge and time), judge it at the extra shapes (--check-dims), profile it with ncu, analyse
// the profile, compare it with the best version so far, classify the strategy, choose the best,
// write the iteration's files and the next proposal, commit the manifest, then record the
// outcome in the strategy memory. The first call of a run also runs preflight and freezes the
// problem (reference, sizes, tolerances, extra shapes).
//
// An iteration is a single version (the kernel file), or a round of candidates the agent handed
// over (--candidates K, candidate_round.h): each candidate is judged, timed, profiled and
// compared with the best exactly as a single version is, and committed to the manifest on its
// own, so that a killed round resumes with the candidates it has not measured yet.
//
// The steps that need a GPU come through `loop_services`, so that CPU tests drive the whole
// orchestration with recorded results.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "env/preflight.h"
#include "harness/bench_job.h"
#include "loop/check_shapes.h"
#include "loop/run_manifest.h"
#include "pipeline/analysis_pipeline.h"
#include "pipeline/bench_pipeline.h"
#include "pipeline/comparison_pipeline.h"
#include "pipeline/profile_pipeline.h"
#include "profile/ncu_command.h"

namespace kopt::loop {

struct loop_settings {
  pipeline::bench_target target;              // the kernel file the agent edits, its reference, dims
  harness::bench_job job;                     // warm-up, repeat, seed, sampling limits
  std::optional<double> atol;
  std::optional<double> rtol;
  profile::ncu_capture_options capture;       // --kernel-name-regex, --launch-skip/count
  std::string ncu_bin;
  std::int64_t max_iterations = 1;
  std::filesystem::path run_dir;              // empty: a new run beside the kernel
  bool new_run = false;                       // run_dir is where a new run starts (else it must hold one)
  std::optional<std::int64_t> iteration;      // --iteration: must be the next one
  bool preflight_only = false;
  std::string op;                             // "": the kernel's file stem
  std::string op_family;
  std::filesystem::path memory_db;
  std::vector<check_shape> check_shapes;      // --check-dims: judged there too; frozen at v0
  pipeline::turns_settings comparison;        // --compare-seconds: the budget of a comparison in turns
};

struct loop_services {
  std::function<env::preflight_report(const env::preflight_options&)> preflight;
  std::function<pipeline::bench_outcome(const pipeline::bench_request&)> bench;
  std::function<pipeline::profile_outcome(const pipeline::profile_request&)> profile;
  std::function<pipeline::analysis_outcome(const pipeline::analysis_request&)> analyze;
  // Comparing a version with its parent in turns (comparison_pipeline.h); empty: from their
  // bench samples.
  std::function<pipeline::turns_outcome(const pipeline::comparison_request&)> compare;
};

// The real steps, measuring through `worker` (which must outlive the services).
loop_services gpu_services(pipeline::measuring_worker& worker);

struct step_outcome {
  std::filesystem::path run_dir;
  run_manifest manifest;                      // as committed
  std::optional<iteration_record> record;     // none after --preflight-only
  bool problem_changed = false;               // the version declared another problem: the run must stop
};

// What the step is doing, for a progress line ("bench", "profile", ...).
using step_progress = std::function<void(const std::string&)>;

// Throws kopt::error for usage and environment problems (a missing file, a run folder of
// another kernel, a changed reference, preflight not ready, the run's last iteration reached).
// A version that fails (build, judge, profile) is a rejected iteration, not an exception.
// A round of candidates left open by a killed call is finished first (without the kernel file).
step_outcome run_loop_step(const loop_settings& settings, const loop_services& services,
                           const step_progress& progress = {});

// A candidate the agent handed over (candidate_handover.h).
struct handed_candidate {
  int candidate = 0;               // J, from its file name cand_J
  std::filesystem::path kernel;    // cand_J.<the kernel's extension>
  std::filesystem::path proposal;  // cand_J.md, with its "## Strategy tags"
};

// The next iteration as a round of `candidates`: snapshots them and commits the list, then
// evaluates each (writing it into the kernel file while it is measured, so that its local
// headers resolve as the kernel's do), commits each outcome, and closes the round: the
// positive candidate with the largest improvement becomes the best, and the kernel file holds
// the best version afterwards. Throws kopt::error as run_loop_step does, and when the run has
// no v0 yet or a round is still open.
step_outcome run_candidate_round(const loop_settings& settings,
                                 const std::vector<handed_candidate>& candidates,
                                 const loop_services& services, const step_progress& progress = {});

// The run as committed, without evaluating anything: opens it (checking what is frozen) and
// replays what the memory missed. `record` is its last iteration. Throws kopt::error as
// run_loop_step does, also when the run has done all its iterations.
step_outcome resume_point(const loop_settings& settings);

}  // namespace kopt::loop
