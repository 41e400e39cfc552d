#pragma once
// `kopt --warm COMMAND ...` (or KOPT_WARM=1): the measuring commands (bench, compare, profile,
// loop) run in this kopt's warm worker (docs/worker.md), started when there is none, with this
// process's folder and standard streams; other commands run here as always.

#include <optional>
#include <string>
#include <vector>

namespace kopt::cli {

// The exit status when the worker ran the command; nothing when the command runs here (not
// asked, not a measuring command, or no worker could take it: a line on stderr says why).
// Removes a leading --warm from `words`.
std::optional<int> run_in_warm_worker_if_asked(std::vector<std::string>& words);

// The commands a warm worker runs for a client.
bool runs_in_warm_worker(const std::string& command);

}  // namespace kopt::cli
