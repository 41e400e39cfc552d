#pragma once
// The proposal for the next iteration, from the run's state and the memory: built from the best
// version's diagnosis, with the knowledge base's suggestions ranked by what the memory learned
// on this backend, architecture and bottleneck (from any kernel), and the strategies it blocks
// and prefers.

#include <filesystem>
#include <string>

#include "loop/run_manifest.h"
#include "memory/memory_store.h"

namespace kopt::loop {

std::string next_proposal_markdown(const run_manifest& m, const std::filesystem::path& run_dir,
                                   const memory::memory_store& store);

}  // namespace kopt::loop
