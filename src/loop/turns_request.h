#pragma once
// The comparison in turns as the loop asks for it, when it judges a version against its parent
// and when the final confirmation compares the best with the baseline: one request, made here.

#include "loop/step_context.h"
#include "pipeline/comparison_pipeline.h"

namespace kopt::loop {

// Whether this call can compare two of the run's versions in turns: the services can, and the
// versions can be held open: a Triton module from its snapshot, a compiled one from the library
// its bench measured (`libraries_kept`: both were). Otherwise versions are compared from their
// benches' samples.
bool compares_in_turns(const step_context& ctx, bool libraries_kept);

// The run's target, sampling and comparison settings, with two versions of its kernel (each its
// snapshot and the library its bench measured; none for Triton). `expected_ms`: a median of the
// slower one.
pipeline::comparison_request turns_request(const step_context& ctx,
                                           const pipeline::compared_version& candidate,
                                           const pipeline::compared_version& incumbent, double expected_ms);

}  // namespace kopt::loop
