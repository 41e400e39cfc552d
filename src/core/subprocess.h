#pragma once
// The one way kopt starts programs: an argv array (never a shell), captured output,
// an optional time limit after which the whole process group is killed.

#include <filesystem>
#include <optional>
#include <string>

#include "core/process_request.h"

namespace kopt {

process_result run_process(const process_request& request);

// Looks `name` up on PATH (a name with a '/' is checked as a path). Returns an absolute path.
std::optional<std::filesystem::path> find_executable(const std::string& name);

}  // namespace kopt
