#pragma once
// What `kopt report` shows about a loop run, gathered from the run folder: the manifest as the
// loop committed it (the one record of what happened, read with the loop's own reader), the
// diagnosis of every profiled iteration from its analysis.json, and what the strategy memory
// concluded about the run's strategies. Writers (HTML, JSON, the terminal) print this and
// derive nothing the manifest already says.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyze/diagnosis.h"
#include "loop/confirmation_record.h"
#include "loop/run_ledger.h"
#include "loop/run_manifest.h"
#include "loop/toolkit_run_adoption.h"
#include "memory/memory_store.h"
#include "report/source_changes.h"

namespace kopt::report {

// One profiled iteration's diagnosis: the launch that took longest, the one whose class the
// manifest records as the iteration's bottleneck.
struct iteration_diagnosis {
  std::int64_t iteration = 0;
  std::size_t launches = 0;         // profiled launches in the analysis
  analyze::kernel_diagnosis launch;
};

// A strategy the run tried, with this run's outcomes (from the manifest) and, when the memory
// could be read, its history across every run there.
struct strategy_conclusion {
  std::string fingerprint;
  std::vector<std::string> tags;
  std::vector<std::int64_t> iterations;  // where this run tried it, in order
  std::vector<std::string> outcomes;     // this run's outcome at each of them
  bool blocked = false;                  // in the manifest's blocked list
  std::optional<memory::strategy_summary> history;  // every run in the memory (this backend)
};

struct memory_reading {
  std::string database;  // the manifest's memory_db, or the one the caller named
  bool read = false;     // opened read-only and queried
  std::string note;      // why it was not read ("" when it was)
};

struct run_report {
  std::filesystem::path run_dir;
  // As the manifest says, except that a run whose folder differs from the ledger has no best:
  // what it would announce is not what kopt recorded.
  loop::run_manifest manifest;
  loop::record_check record;                   // the run folder held against the ledger
  std::vector<iteration_diagnosis> diagnoses;  // the profiled iterations, in order
  std::vector<strategy_conclusion> strategies; // in the order the run first tried them
  std::vector<source_change> changes;          // each iteration's source against its parent's
  memory_reading memory;
  // confirmation.json, when the run folder has one; the figures announced come from it, and
  // only while it is current (no iteration since it was written).
  std::optional<loop::final_confirmation> confirmation;
  bool confirmation_current = false;
  // toolkit_adoption.json, when the run began as a run of the Python toolkit (its figures unverified).
  std::optional<loop::toolkit_adoption> adoption;

  // The confirmed best's attempt; null when the run is not (or no longer) confirmed or none survived.
  const loop::confirmation_attempt* confirmed_best() const;
  // "confirmed", "none survived", "nothing to confirm" or "not confirmed yet".
  std::string confirmation_state() const;

  const iteration_diagnosis* diagnosis_of(std::int64_t iteration) const;
  // The best version's diagnosis; null without a best or when it was not profiled.
  const iteration_diagnosis* best_diagnosis() const;
};

// What a report says where the run is not confirmed.
inline constexpr const char* not_confirmed_note = "not confirmed yet: run kopt loop --finish --run-dir";

// Throws kopt::error naming the file and what to do for a folder that is not a run (no
// manifest), a manifest edited outside kopt, a missing or foreign analysis.json of an iteration
// the manifest records as profiled, or an analysis whose diagnosis is not the one the manifest
// recorded. A memory that cannot be read is not an error: memory.note says why. `memory_db`,
// when given, is read instead of the memory the manifest names (a run moved from another machine).
// The run folder is held against the ledger in `memory_db`, else in the memory the manifest names
// and the user's default memory (a forged manifest may name another): `record` says what was
// found, and a tampered run's manifest keeps no best.
run_report gather_run_report(const std::filesystem::path& run_dir,
                             const std::optional<std::filesystem::path>& memory_db = std::nullopt);

}  // namespace kopt::report
