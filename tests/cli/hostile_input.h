#pragma once
// What the whole-program reproducers of hostile input share (hostile_*_test.cpp): running kopt,
// the one-line error every refusal must be, and the documents and run folders they damage.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "core/subprocess.h"
#include "support/kopt_process.h"

namespace kopt::hostile {

namespace fs = std::filesystem;
using testing::scratch_dir;

extern const std::map<std::string, std::string> no_gpu;

std::string example(const std::string& name);
std::string deep_array(std::size_t depth);

// The run ended as kopt's one-line error: exit 2, no signal, `kopt: error:` first.
void expect_one_line_error(const process_result& r, const std::string& what);
// The same under --json: stdout is one JSON error document.
void expect_json_error(const process_result& r, const std::string& what);

// A file's bytes, to compare before and after.
std::string bytes_of(const fs::path& file);

// One outcome as `kopt memory export` writes it, and an export of some.
json exported_outcome(const std::string& run_id, const std::string& backend, const std::vector<std::string>& tags,
                      const std::string& fingerprint);
json memory_export(const json& outcomes);
// The Python toolkit's file of tests/data/memory.
json toolkit_memory();
// How many strategies `kopt memory list` finds in `db`.
std::size_t strategies_in(const fs::path& db);
// `kopt memory export TARGET` from a memory (under `dir`) holding one outcome.
process_result export_to(const fs::path& target, const scratch_dir& dir);

// A SQLite file made with `statements`, in the default rollback-journal mode.
fs::path sqlite_file(const fs::path& path, const std::string& statements);
// The file's bytes are `before`, and nothing is beside it (a -wal or -shm: switched to WAL).
void expect_untouched(const fs::path& db, const std::string& before);

// The report fixture's run folder copied to dir/name.
fs::path copy_of_fixture_run(const scratch_dir& dir, const std::string& name);
json manifest_of(const fs::path& run);
// The manifest sealed as kopt would: its checksum recomputed over the changed content, as an
// agent between iterations could. What the reader must then refuse is the content itself.
void write_resealed_manifest(const fs::path& run, json manifest);
// kopt loop continuing `run` (no GPU here: a manifest kopt refuses is refused before one is needed).
process_result loop_in(const fs::path& run, const scratch_dir& dir);

}  // namespace kopt::hostile
