#pragma once
// What the agent may write under `kopt loop --agent CMD --agent-sandbox` (core/sandboxed_process.h
// runs it so): the kernel file and its proposal, in place (opened for writing or truncated, not
// replaced by a rename or removed); the candidates folder of --candidates K > 1 and its own work
// folder, beneath; and the device nodes a GPU program opens for writing with /dev/null, /dev/zero
// and /dev/full (core/measuring_writes.h). Nothing else: not the run folder and its record, not
// the strategy memory and its ledger, not kopt's caches, not the reference.
//
// Its work folder, KOPT_AGENT_DIR (`agent/` in the run folder, kept across iterations and never
// read by kopt), holds its temporary folder (TMPDIR, TMP and TEMP point at agent/tmp) and the
// compile cache of any kopt it runs itself (KOPT_CACHE_DIR points at agent/cache).

#include <filesystem>
#include <map>
#include <string>

#include "core/write_sandbox.h"

namespace kopt::loop {

// KOPT_AGENT_DIR of the run: made, with its tmp/ and cache/, when missing.
std::filesystem::path agent_work_dir(const std::filesystem::path& run_dir);

// `candidates_dir` empty: no round of candidates (K = 1).
write_allowance agent_allowance(const std::filesystem::path& kernel, const std::filesystem::path& proposal,
                                const std::filesystem::path& candidates_dir, const std::filesystem::path& work_dir);

// TMPDIR, TMP, TEMP and KOPT_CACHE_DIR inside the work folder.
std::map<std::string, std::string> sandboxed_agent_environment(const std::filesystem::path& work_dir);

// Throws kopt::error, before any work, when no write sandbox can be applied here.
void check_agent_sandbox_available();

}  // namespace kopt::loop
