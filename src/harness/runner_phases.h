#pragma once
// A Python reference is timed inside kopt's runner, so the reference's `python_runner` phase
// holds its sampling too. The runner reports that part (`timing_s` in its overhead): the
// phases then show it as `timing`, as a native reference's, and `python_runner` keeps only the
// runner's own costs. The phases' sum is unchanged.

#include <optional>

#include "core/phase_clock.h"
#include "harness/runner_documents.h"

namespace kopt::harness {

// `phases` with the runner's timing moved out of `python_runner` into `timing` (just after
// it); as given when `overhead` reports no timing (validation only, a runner that failed, a
// native reference) or there is no runner phase.
phase_seconds with_runner_timing(phase_seconds phases, const std::optional<runner_overhead>& overhead);

}  // namespace kopt::harness
