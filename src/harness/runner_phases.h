#pragma once
// A Python reference is timed inside kopt's runner, so the reference's `python_runner` phase
// holds its sampling too. The runner reports that part (`timing_s` in its overhead): the
// phases then show it as `timing`, as a native reference's, and `python_runner` keeps only the
// runner's own costs. The phases' sum is unchanged.

#include "core/json_io.h"

namespace kopt::harness {

// `phases` with the runner's timing moved out of `python_runner` into `timing`; as given when
// `overhead` reports no timing (validation only, a runner that failed) or there is no runner phase.
json with_runner_timing(json phases, const json& overhead);

}  // namespace kopt::harness
