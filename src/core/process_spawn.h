#pragma once
// run_process in two halves, for programs that are started before their work can begin
// (core/gated_process.h): spawning (argv, environment, descriptors, own process group) and
// waiting (output, time limit, cancellation, processes left running). Only the subprocess
// module's own files use it.

#include <sys/types.h>

#include <chrono>
#include <utility>

#include "core/process_request.h"

namespace kopt {

// A started program's id and the read ends of its output pipes; a program never waited for
// is killed with its group and reaped when this ends.
struct spawned_process {
  pid_t pid = -1;
  int out = -1;
  int err = -1;
  spawned_process() = default;
  spawned_process(const spawned_process&) = delete;
  spawned_process& operator=(const spawned_process&) = delete;
  spawned_process(spawned_process&& other) noexcept : pid(other.pid), out(other.out), err(other.err) {
    other.pid = other.out = other.err = -1;
  }
  // Takes `other`'s program; this one's, if any, goes with `other` (and ends with it).
  spawned_process& operator=(spawned_process&& other) noexcept {
    std::swap(pid, other.pid);
    std::swap(out, other.out);
    std::swap(err, other.err);
    return *this;
  }
  ~spawned_process();
};

// Starts `request.argv` with `stdin_fd` as its standard input (-1: /dev/null). Sets
// result.started, or result.start_error and returns a process with pid -1.
spawned_process spawn_process(const process_request& request, int stdin_fd, process_result& result);

// Starts `request.argv` with one end of a fresh socket pair as its standard input (a socket
// rather than a pipe: writing to it after the program died gives EPIPE, with MSG_NOSIGNAL no
// SIGPIPE that would end kopt) and keeps it as this process's own child (orphans.h) until its
// work begins. Returns kopt's end, or -1 when the program could not start (result says why).
int spawn_on_socket(const process_request& request, spawned_process& spawned, process_result& result);

// Reads its output until it ends, the time limit (counted from `start_time`) passes or the
// thread is cancelled, as run_process does, and fills `result`.
void wait_for_process(spawned_process& spawned, const process_request& request,
                      std::chrono::steady_clock::time_point start_time, process_result& result);

}  // namespace kopt
