#pragma once
// The local headers a kernel source pulls in (#include "..."), followed recursively, so that
// editing a header invalidates the compile cache. System headers (<...>) are covered by the
// toolkit and CUTLASS versions in the cache key instead.

#include <filesystem>
#include <vector>

namespace kopt::compile {

// Absolute paths, the source first, each file once; unresolvable includes are skipped
// (nvcc will report them).
std::vector<std::filesystem::path> local_include_closure(const std::filesystem::path& source);

}  // namespace kopt::compile
