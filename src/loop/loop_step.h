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
#include <vector>

#include "loop/candidate_handover.h"
#include "loop/loop_services.h"
#include "loop/loop_settings.h"
#include "loop/step_outcome.h"

namespace kopt::loop {

// Throws kopt::error for usage and environment problems (a missing file, a run folder of
// another kernel, a changed reference, preflight not ready, the run's last iteration reached).
// A version that fails (build, judge, profile) is a rejected iteration, not an exception.
// A round of candidates left open by a killed call is finished first (without the kernel file).
step_outcome run_loop_step(const loop_settings& settings, const loop_services& services,
                           const step_progress& progress = {});

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
