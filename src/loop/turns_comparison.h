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

// One of the run's versions as a comparison in turns holds it: its snapshot and the library its
// bench measured (a compiled version), or, for a Triton module, the snapshot's text as it was
// checked against the manifest: the copy that runs is written from that text, not read again.
struct turns_side {
  pipeline::compared_version files;
  std::string checked_text;  // a Triton module's; "" for a compiled version
};

// Two versions of the run's kernel compared in turns with the run's target, sampling and
// comparison settings. `expected_ms`: a median of the slower one. Two Triton modules run from
// copies of their checked texts beside the kernel file (`.<stem>.kopt-turns1.py` and `turns2`,
// work_file.h), where they import their siblings as the kernel does; a compiled version runs its
// library.
pipeline::turns_outcome compare_versions_in_turns(const step_context& ctx, const turns_side& candidate,
                                                  const turns_side& incumbent, double expected_ms);

}  // namespace kopt::loop
