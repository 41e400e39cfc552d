#pragma once
// From the run's manifest to the strategy memory. The manifest is committed first; the memory
// is then told, one transaction per outcome keyed by (run, iteration, attempt, candidate): ""
// for a single version, "cand_J" for candidate J of a round. A call killed in between leaves an
// outcome the memory lacks, and the next call replays it (a replay of one already recorded
// changes nothing).

#include <cstdint>
#include <string>

#include "loop/run_manifest.h"
#include "memory/memory_store.h"

namespace kopt::loop {

// Where the run's outcomes transfer: backend, architecture, operator, dimensions and the
// bottleneck the strategy addressed.
memory::memory_scope scope_of(const run_manifest& m, const std::string& arch, const std::string& bottleneck);

// Records `r` when it is a strategy's outcome (tagged, and not the baseline); for a round,
// each of its candidates instead (the iteration's own fields repeat the chosen one's).
void record_in_memory(const run_manifest& m, const iteration_record& r, memory::memory_store& store);

// Records candidate `c` of `round` once it has its outcome, as above.
void record_candidate_in_memory(const run_manifest& m, const iteration_record& round, const candidate_record& c,
                                memory::memory_store& store);

// `r` as the final confirmation left it (rejected, with its reason) told to the memory: the
// outcome the loop recorded for its version (the chosen candidate's, for a round) is revised.
void revise_in_memory(const run_manifest& m, const iteration_record& r, memory::memory_store& store);

// Every committed outcome, those of an open round included; the superseded attempts marked so,
// the rejected versions revised.
void replay_into_memory(const run_manifest& m, memory::memory_store& store);

}  // namespace kopt::loop
