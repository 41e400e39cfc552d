#pragma once
// What one call of the loop leaves: the run folder, its manifest as committed, the iteration it
// recorded, whether the run must stop because the version declared another problem, and what
// the run folder's check against the ledger found before the call did anything.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "loop/run_ledger.h"
#include "loop/run_manifest.h"

namespace kopt::loop {

struct step_outcome {
  std::filesystem::path run_dir;
  run_manifest manifest;                      // as committed
  std::optional<iteration_record> record;     // none after --preflight-only
  bool problem_changed = false;               // the version declared another problem: the run must stop
  record_check run_check;                     // the run folder held against the ledger before this call's work
  std::vector<std::string> notices;           // what the user should know besides the record (one line each)
};

}  // namespace kopt::loop
