#pragma once
// Finding CUTLASS's headers: $CUTLASS_PATH (a CUTLASS checkout), $CUTLASS_INCLUDE_DIR (its
// include folder), the include folder inside the PyPI package nvidia-cutlass, then the usual
// prefixes. The version comes from cutlass/version.h.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kopt::compile {

struct cutlass_headers {
  std::filesystem::path include_dir;                      // holds cutlass/ and cute/
  std::optional<std::filesystem::path> util_include_dir;  // tools/util/include, when present
  std::string version;                                    // "4.2.0"
  std::string found_via;                                  // "CUTLASS_PATH", "nvidia-cutlass (pip)", ...
};

struct cutlass_search {
  std::optional<cutlass_headers> headers;
  std::vector<std::string> looked_in;
};

cutlass_search find_cutlass();

// Throws kopt::error naming every place it looked.
cutlass_headers require_cutlass();

// "4.2.0" from the text of cutlass/version.h, "" when the macros are missing.
std::string parse_cutlass_version(const std::string& version_header);

}  // namespace kopt::compile
