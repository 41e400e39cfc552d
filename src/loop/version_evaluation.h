#pragma once
// Measuring one version for the loop: bench (the judge and the timing) and the judge again at
// each extra shape (--check-dims, validation only); then, for a version that becomes the best,
// one ncu profile and its analysis. Each writes into the iteration's folder under the Python
// toolkit's file names. A step that fails ends the evaluation with the reason; nothing is thrown
// for a kernel's failure.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "loop/diagnosis_digest.h"
#include "loop/loop_services.h"
#include "loop/loop_settings.h"
#include "loop/run_manifest.h"
#include "measure/outcome.h"

namespace kopt::loop {

struct version_evaluation {
  std::string failure;                     // "" when every step passed; else "build failed: ..."
  std::string problem_sha256;              // "" when the build failed before planning finished
  std::optional<double> median_ms;
  json median_ci95_ms = nullptr;
  std::optional<double> reference_median_ms;
  std::optional<double> speedup_vs_reference;
  std::optional<diagnosis_digest> diagnosis;
  std::string arch;                        // what the kernel was built for
  std::string library_sha256;              // of <folder>/kernel_library.so, kept for comparisons in turns ("" none)
  std::vector<shape_check> checks;         // one per --check-dims shape ("not run" after an earlier failure)
  std::vector<std::string> check_problem_sha256;  // the problem at each shape, "" where not planned
  json step_seconds = json::object();      // [s] per step that ran: bench, check_dims, profile, analyze
};

// Bench and the extra shapes: what the judge and the comparison with the parent need.
version_evaluation measure_version(const loop_settings& settings, const loop_services& services,
                                   const std::filesystem::path& iteration_dir, const step_progress& progress);

// The profile and its analysis, added to `e` (its diagnosis, or the failure; the steps' times).
void profile_version(const loop_settings& settings, const loop_services& services, const std::string& backend,
                     const std::filesystem::path& iteration_dir, const step_progress& progress,
                     version_evaluation& e);

// The outcome of the candidate's kernel against the incumbent's, from the samples of their two
// bench results (measure::classify_against, with the coarser of their timer steps): for versions
// that cannot take turns.
measure::outcome_evidence compare_bench_results(const pipeline::bench_result& candidate,
                                                const pipeline::bench_result& incumbent);

}  // namespace kopt::loop
