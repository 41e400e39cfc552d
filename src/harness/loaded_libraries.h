#pragma once
// Libraries that do a kernel's work for it (cuBLAS, cuDNN, torch, ...): a solve() that hands
// its work to one is timed honestly, since all the work it issues is counted, but the result
// says which were loaded (EXPLOITS.md #21) so that a reader knows whose code was measured.

#include <string>
#include <string_view>
#include <vector>

namespace kopt::harness {

// The library file names among `maps_text` (the text of /proc/self/maps) that belong to a
// known GPU compute library, sorted and without duplicates. Pure; tested on its own.
std::vector<std::string> compute_libraries_in(std::string_view maps_text);

// The same for this process now.
std::vector<std::string> loaded_compute_libraries();

// Those loaded now that were not in `baseline` (what loaded_compute_libraries() said before
// the version was loaded).
std::vector<std::string> compute_libraries_loaded_since(const std::vector<std::string>& baseline);

}  // namespace kopt::harness
