#pragma once
// A write sandbox cannot be lifted once applied, so the tests that apply one do it in a child
// process of their own.

#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include "core/write_sandbox.h"

namespace kopt::testing {

// Runs `body` in a forked child and returns its exit code (-1 when it did not exit).
inline int in_child(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(body());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Whether this machine's kernel applies the sandbox (Landlock present and enabled).
inline bool landlock_here() {
  return in_child([] { return restrict_writes_to({}).applied ? 0 : 1; }) == 0;
}

}  // namespace kopt::testing
