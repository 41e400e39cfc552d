#pragma once
// What one call of the loop leaves: the run folder, its manifest as committed, the iteration it
// recorded, and whether the run must stop because the version declared another problem.

#include <filesystem>
#include <optional>

#include "loop/run_manifest.h"

namespace kopt::loop {

struct step_outcome {
  std::filesystem::path run_dir;
  run_manifest manifest;                      // as committed
  std::optional<iteration_record> record;     // none after --preflight-only
  bool problem_changed = false;               // the version declared another problem: the run must stop
};

}  // namespace kopt::loop
