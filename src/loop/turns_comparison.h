#pragma once
// The comparison in turns as the loop asks for it, when it judges a version against its parent,
// when it compares a round's two fastest candidates, and when the final confirmation compares
// the best with the baseline: one request, made and run here.

#include "loop/step_context.h"
#include "pipeline/comparison_pipeline.h"

namespace kopt::loop {

// Whether this call can compare two of the run's versions in turns: the services can, and the
// versions can be held open: a Triton module from its snapshot, a compiled one from the library
// its bench measured (`libraries_kept`: both were). Otherwise versions are compared from their
// benches' samples.
bool compares_in_turns(const step_context& ctx, bool libraries_kept);

// Two versions of the run's kernel (each its snapshot, and the library its bench measured; none
// for Triton) compared in turns with the run's target, sampling and comparison settings.
// `expected_ms`: a median of the slower one. Two Triton modules run from copies of their
// snapshots beside the kernel file (`.<stem>.kopt-turns1.py` and `turns2`, work_file.h), where
// they import their siblings as the kernel does; a compiled version runs its library.
pipeline::turns_outcome compare_versions_in_turns(const step_context& ctx,
                                                  const pipeline::compared_version& candidate,
                                                  const pipeline::compared_version& incumbent,
                                                  double expected_ms);

}  // namespace kopt::loop
