#pragma once
// The run's record held against the ledger kept outside the run folder (memory/ledger_store.h,
// EXPLOITS.md #30). Anything that runs as the user between iterations (an agent, above all)
// can rewrite the run folder: the manifest (and compute its plain checksum again), an earlier
// version's snapshot or kept library, a proposal the run took its strategy from. So at every
// commit the loop records the SHA-256 of each file the run relies on in the ledger, and before
// each iteration (and in `kopt report`) the files are hashed again and held against it: a
// difference names the file. A run folder the ledger does not know (moved to another folder or
// machine, another memory) is "unverified": said, not refused.

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "core/json.h"
#include "loop/run_manifest.h"
#include "memory/memory_store.h"

namespace kopt::loop {

// The SHA-256 of every file the run relies on, by its path relative to the run folder:
// run_manifest.json; for every version (iterations and candidates) its snapshot and, once
// evaluated, its kept library, benchmark_result.json, comparison.json and analysis.json; a
// candidate's copied proposal; the proposal of every iteration but the last (the one being
// filled), which named the next version's strategy. Files that are not there are not listed.
using run_record = std::map<std::string, std::string>;

// The record of `m` in `run_dir`, `manifest_text` being its manifest's bytes.
run_record record_of(const std::filesystem::path& run_dir, const run_manifest& m, std::string_view manifest_text);

struct record_check {
  std::string status = "new";  // verified, unverified, tampered; new: nothing recorded yet
  std::string file;            // tampered: what differs, relative to the run folder (or the ledger's database)
  std::string detail;          // one line: how it differs, or why the run is unverified
  std::string ledger;          // the memory database that holds the ledger looked in
  bool staged = false;         // verified against a record a call staged and did not commit (killed)
};

// The run folder held against the ledger in `store` (read-only is enough). Never throws for a
// difference: the caller decides what it means.
record_check check_run_record(const std::filesystem::path& run_dir, const run_manifest& m,
                              const memory::memory_store& store);

// The loop's commit point: stages the record of `m` in the ledger, writes run_manifest.json,
// and commits the record (a kill in between leaves a ledger that agrees with the folder).
void commit_run_manifest(const std::filesystem::path& run_dir, const run_manifest& m,
                         const memory::memory_store& store);

// Before an iteration measures anything: throws kopt::error naming the file when the run folder
// differs from the ledger; commits a record a killed call staged when the folder matches it;
// returns the check (verified, or unverified with the reason).
record_check verify_before_iteration(const std::filesystem::path& run_dir, const run_manifest& m,
                                     const memory::memory_store& store);

json to_json(const record_check& check);

}  // namespace kopt::loop
