#pragma once
// `kopt --warm COMMAND ...` (or KOPT_WARM=1): the measuring commands (bench, compare, profile,
// loop without --agent) run in this kopt's warm worker (docs/worker.md), started when there is none, with this
// process's folder and standard streams; other commands run here as always.

#include <optional>
#include <string>
#include <vector>

namespace kopt::cli {

// The exit status when the worker ran the command; nothing when the command runs here (not
// asked, not a measuring command, or no worker could take it: a line on stderr says why).
// Removes a leading --warm from `words`.
std::optional<int> run_in_warm_worker_if_asked(std::vector<std::string>& words);

// The command line that starts this kopt's worker: `kopt worker serve`, with `--idle-seconds
// IDLE` unless `idle_seconds` is empty (the worker's default).
std::vector<std::string> worker_serve_argv(const std::string& idle_seconds);

// Whether a warm worker runs this command line for a client: bench, compare, profile, and loop
// for one iteration (a loop with --agent runs for its whole length in a kopt of its own, which
// keeps its references warm itself; in the worker it would hold every other client back).
bool runs_in_warm_worker(const std::vector<std::string>& words);

}  // namespace kopt::cli
