#pragma once
// The local headers a kernel source pulls in (#include "..."), followed recursively, so that
// editing a header invalidates the compile cache. System headers (<...>) are covered by the
// toolkit and CUTLASS versions in the cache key instead.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kopt::compile {

// A line's `#include "NAME"`: NAME, and where it stands in the line (between the quotes).
struct quoted_include {
  std::string name;
  std::size_t begin = 0;
  std::size_t length = 0;
};

// nullopt for any other line, a system include (<...>) among them.
std::optional<quoted_include> quoted_include_of(const std::string& line);

// Absolute paths, the source first, each file once; unresolvable includes are skipped
// (nvcc will report them).
std::vector<std::filesystem::path> local_include_closure(const std::filesystem::path& source);

}  // namespace kopt::compile
