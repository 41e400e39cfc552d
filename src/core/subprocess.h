#pragma once
// The one way kopt starts programs: an argv array (never a shell), captured output,
// an optional time limit after which the whole process group is killed.

#include <filesystem>
#include <optional>
#include <string>

#include "core/process_request.h"

namespace kopt {

process_result run_process(const process_request& request);

// Starts `request.argv` and lets it run on after this call returns, and after kopt exits: work
// whose result nobody waits for. It is in a process group of its own (a Ctrl-C to kopt does not
// reach it), its output is read and dropped and it is reaped when it ends, by a thread of its
// own, so a long-lived kopt (the warm worker, the MCP server) keeps no zombie. Returns why it
// could not start, or "".
std::string start_in_background(const process_request& request);

// Looks `name` up on PATH (a name with a '/' is checked as a path). Returns an absolute path.
std::optional<std::filesystem::path> find_executable(const std::string& name);

}  // namespace kopt
