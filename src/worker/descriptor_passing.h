#pragma once
// One request or reply over a Unix stream socket: a line of JSON, optionally with open file
// descriptors riding along (SCM_RIGHTS), so that a command the worker runs writes straight to
// its client's terminal or pipes.

#include <chrono>
#include <optional>
#include <vector>

#include "core/json_io.h"

namespace kopt::worker {

// Sends `message` as one line with `fds` attached. Throws kopt::error when the peer is gone.
void send_message(int socket_fd, const json& message, const std::vector<int>& fds = {});

struct received_message {
  json message;
  std::vector<int> fds;  // owned by the receiver now: close them
};

// Reads one line (and the descriptors that came with it) within `limit`. Nothing when the peer
// closed the connection first or the time ran out; throws kopt::error on a line that is not
// JSON or longer than 1 MiB.
std::optional<received_message> receive_message(int socket_fd, std::chrono::milliseconds limit);

}  // namespace kopt::worker
