#pragma once
// The warm worker's serving side: it listens on its socket and runs one command line at a time
// for a client, in the client's folder and with the client's standard input, output and error
// (passed over the socket), on one long-lived thread of its own; it answers with the command's
// exit status. A client that goes away mid-command cancels it (the programs it started are
// killed, core/cancellation.h). Requests: run, status, stop. It ends when stopped or after
// `idle` without a request, and removes its socket.

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "worker/worker_address.h"

namespace kopt::worker {

// Runs one command line (argv without the program's name); returns its exit status. May throw.
using command_runner = std::function<int(const std::vector<std::string>& words)>;

struct server_settings {
  identity self;
  std::filesystem::path socket;
  std::chrono::seconds idle{600};
  // What the commands keep warm between them, for the status reply (may be empty). Called on
  // the serving thread while a command may run.
  std::function<json()> kept_warm;
};

// Serves until stopped or idle. Throws kopt::error when the socket cannot be made (another
// worker of this identity is listening on it already, say).
void serve(const server_settings& settings, const command_runner& run);

}  // namespace kopt::worker
