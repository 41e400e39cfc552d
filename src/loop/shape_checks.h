#pragma once
// The judge at each extra shape (--check-dims): a validation-only bench of the version there (no
// timing), its files in iter_vK/check_shapes/shape_I/ (benchmark_result.json and the two
// texts). The first shape that fails ends the checks; the ones after it are "not run".

#include <filesystem>
#include <string>
#include <vector>

#include "loop/loop_services.h"
#include "loop/loop_settings.h"
#include "loop/run_manifest.h"

namespace kopt::loop {

struct shape_checks_outcome {
  std::vector<shape_check> checks;          // one per shape, in order
  std::vector<std::string> problem_sha256;  // the problem planned at each shape ("" where not planned)
  std::string failure;  // "fails at --rows=1000 --cols=1000: validation failed ..."; "" when all passed
};

// Every shape of `settings.check_shapes`, "not run": the record of a version that failed before.
shape_checks_outcome unchecked_shapes(const loop_settings& settings);

shape_checks_outcome run_shape_checks(const loop_settings& settings, const loop_services& services,
                                      const std::filesystem::path& iteration_dir,
                                      const step_progress& progress);

}  // namespace kopt::loop
