#pragma once
// The strategy memory written back as the Python toolkit's global_strategy_memory.json
// (toolkit_memory_file.h), so that a team still on the toolkit gets what kopt learned. The
// toolkit sorts a scope's strategies into positive, negative and rejected only: neutral and
// inconclusive outcomes have no bucket there and are left out, as are superseded attempts
// (no longer evidence); the counts say how many.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "memory/memory_store.h"

namespace kopt::memory {

// The toolkit's scope key: `backend__<source stem>__<reference stem or no_ref>__<arch or
// auto_arch>__<first 12 hex digits of SHA-1 of the sorted dimension flags joined by "|">`, the
// stems with every character that is not a letter or digit turned into `_`.
std::string toolkit_scope_key(const std::string& backend, const std::string& source_stem,
                              const std::string& reference_stem, const std::string& arch,
                              std::vector<std::string> dimension_flags);

struct toolkit_export_counts {
  std::size_t written = 0;           // outcomes in the file
  std::size_t scopes = 0;
  std::size_t neutral = 0;           // left out: no bucket in the toolkit
  std::size_t inconclusive = 0;
  std::size_t superseded = 0;        // left out: redone attempts
  // Written under `no_ref`: recorded before kopt kept the run's reference file with an outcome.
  std::size_t reference_unknown = 0;
};

// Writes the file atomically. An outcome imported from the toolkit goes back under its own key.
toolkit_export_counts export_toolkit_memory_file(const memory_store& store, const std::filesystem::path& file);

}  // namespace kopt::memory
