#pragma once
// What one call of the loop works with once its run is open (the settings, the services, the
// run folder with its manifest and lock, the memory), and the files every finished iteration
// leaves, in the order that keeps a killed call harmless.

#include <filesystem>
#include <string>
#include <vector>

#include "loop/loop_services.h"
#include "loop/loop_settings.h"
#include "loop/run_opening.h"
#include "memory/memory_store.h"

namespace kopt::loop {

struct step_context {
  const loop_settings& settings;
  const loop_services& services;
  const step_progress& progress;
  opened_run& run;
  memory::memory_store& store;

  void say(const std::string& what) const {
    if (progress) progress(what);
  }
};

// `r` is the run's newest iteration (already in the manifest's list): iteration_summary.md and
// the next optimization_proposal.md, then run_manifest.json (the commit point), then
// final_summary.md. The memory is told by the caller, after this.
void commit_iteration(const step_context& ctx, const iteration_record& r);

// The commands that re-run a version's measurements (its snapshot, as the run built and
// measured it), for its iteration_summary.md.
std::vector<std::string> version_commands(const run_manifest& m, const std::filesystem::path& run_dir,
                                          const iteration_record& r);

// The best version's, for final_summary.md.
std::vector<std::string> reproduce_commands(const run_manifest& m, const std::filesystem::path& run_dir);

}  // namespace kopt::loop
