#pragma once
// The verdict on the kernel's outputs, given in the parent: every set of inputs the kernel's
// measuring process kept (validation seeds and checked timed calls) is compared with the
// reference's outputs for the same inputs, which a separate process made. Neither child sees
// the other's outputs, and neither decides.

#include <filesystem>
#include <optional>
#include <vector>

#include "pipeline/bench_result.h"
#include "harness/evidence_files.h"
#include "harness/output_checks.h"
#include "kernel/buffer_plan.h"
#include "validate/tolerance.h"

namespace kopt::pipeline {

struct evidence_folders {
  std::filesystem::path kernel;
  std::filesystem::path reference;
};

// What the outputs say: the correctness summary (the seeds' comparisons, the tolerance of the
// first output, the output count; `passed` left to the verdict) and, at the first failing key,
// why: a reason that starts with the key ("validation failed (seed 1): wrong values: ...",
// "timed call 57 (checked at random): no write: ...", "evidence tampering: ...").
struct outputs_judgement {
  correctness_summary correctness;
  std::optional<std::string> failure;
  std::size_t compared = 0;             // keys whose outputs were compared
};

// Compares each key's outputs, in order (up to one the kernel's side left unreadable). `folders` null: there is no
// reference, nothing is compared. `compared_already` (may be null; by key index): keys compared
// while the reference's process ran (early_comparisons.h), with these tolerances; the rest are
// compared here. Throws kopt::error when the reference's side left a file missing or of the
// wrong size (the kernel's side doing so is its failure).
outputs_judgement judge_outputs(const kernel::kernel_plan& plan, const std::vector<harness::evidence_key>& keys,
                                const evidence_folders* folders, const validate::tolerance_overrides& tolerances,
                                const std::vector<std::optional<harness::outputs_verdict>>* compared_already = nullptr);

}  // namespace kopt::pipeline
