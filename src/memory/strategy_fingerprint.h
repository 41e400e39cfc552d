#pragma once
// A strategy is a set of tags ("vectorized_float4_io", "register_cached_exp", ...) for one
// backend. Its fingerprint follows the Python toolkit's rule exactly (DESIGN.md, "Strategy
// memory"), so that the toolkit's global_strategy_memory.json imports with the same keys:
// tags lower-cased, runs of whitespace turned into "_", characters outside [a-z0-9_-]
// dropped, empties removed, deduplicated and sorted; then the first 16 hex digits of SHA-1
// over the JSON text {"backend": "<b>", "tags": ["<t1>", ...]} as Python's json.dumps writes it
// with sorted keys and non-ASCII kept.

#include <string>
#include <vector>

namespace kopt::memory {

// One tag normalized ("" when nothing is left of it).
std::string normalize_tag(const std::string& tag);

// The tags normalized, without empties and duplicates, sorted.
std::vector<std::string> normalize_tags(const std::vector<std::string>& tags);

// The fingerprint of `backend` with `tags` (normalized here first).
std::string strategy_fingerprint(const std::string& backend, const std::vector<std::string>& tags);

}  // namespace kopt::memory
