#pragma once
// The client's side of the warm worker: find this kopt's worker (starting one when there is
// none), hand it a command line with this process's folder and standard streams, and wait for
// its exit status.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_io.h"
#include "worker/worker_address.h"

namespace kopt::worker {

// The exit status of `words` run by the worker, or nothing when no worker could take it (none
// could be started, or the one found refused): the caller then runs the command itself.
// `notes` gets a line for the user each time that happens. A worker that dies during the
// command makes the command fail (exit 2, with a line saying so); the next command starts a new
// worker. One that dies before starting the command (it says when it starts) leaves it to a
// new worker. `start_argv` starts a worker serving on `socket_path(id)` (kopt worker serve ...).
std::optional<int> run_in_worker(const identity& id, const std::vector<std::string>& words,
                                 const std::vector<std::string>& start_argv, std::vector<std::string>& notes);

// Starts this kopt's worker unless one is listening; its status, or nothing when it could not
// be started (`notes` says why).
std::optional<json> start_worker(const identity& id, const std::vector<std::string>& start_argv,
                                 std::vector<std::string>& notes);

// A worker's answer to "status" or "stop", or nothing when none is listening for `id`.
std::optional<json> ask_worker(const identity& id, std::string_view what);

}  // namespace kopt::worker
