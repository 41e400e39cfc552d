#pragma once
// run_manifest.json: the run's one record of what happened, written only by kopt, atomically,
// after everything an iteration produced is in place (so its presence is the iteration's
// commit point). It carries a checksum of its own content: a manifest edited behind kopt's
// back is refused rather than trusted.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "loop/run_records.h"

namespace kopt::loop {

inline constexpr const char* run_manifest_name = "run_manifest.json";
inline constexpr const char* run_manifest_schema = "run_manifest";  // written as kopt.run_manifest/v5
// v2 added the extra validation shapes and rounds of candidates; v3 the attempts of redone
// iterations and a version's own file; v4 a version's problem_changed and a pending candidate's
// outcome "pending" (it was ""); v5 a tuned version's values. Older manifests are still read, and
// written back as v5.
inline constexpr int run_manifest_version = 5;

json to_json(const run_manifest& manifest);

// The file's bytes: the manifest with its checksum.
std::string run_manifest_text(const run_manifest& manifest);

// Writes the manifest with its checksum, atomically. The loop commits it through
// commit_run_manifest (run_ledger.h), which tells the ledger too.
void write_run_manifest(const std::filesystem::path& run_dir, run_manifest manifest);

// Throws kopt::error when the file is missing, of another schema or version, or its checksum
// does not match its content (edited outside kopt).
run_manifest read_run_manifest(const std::filesystem::path& run_dir);

}  // namespace kopt::loop
