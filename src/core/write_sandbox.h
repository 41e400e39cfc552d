#pragma once
// Where a process may write, enforced by the operating system (Linux's Landlock, which any
// unprivileged process can apply to itself). The code under test runs as kopt's user and could
// otherwise rewrite any file kopt can (the reference, kopt's compile cache and runner, the
// user's Python packages), to make a later step agree with it or run slower. A measuring
// process of the code under test restricts itself, before any of that code is loaded and
// before it starts a thread, to writing where its run needs to, by exact path
// (measuring_writes.h says which); the restriction is inherited by every thread and process it
// starts and cannot be lifted. Reading, executing and device ioctls stay allowed.

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kopt {

struct write_allowance {
  std::vector<std::filesystem::path> folders;  // written beneath: files made, changed, removed
  std::vector<std::filesystem::path> files;    // written in place only (opened for writing, truncated)
};

struct write_sandbox {
  bool applied = false;
  int abi = 0;              // Landlock's ABI version (0: not available)
  // "Landlock ABI N: writes only under A, B; in place to C, D", or "unavailable: <why>".
  std::string description;
};

// Restricts this thread (and what it starts from now on) to `allowed` (paths that do not exist
// are left out). Never throws: without Landlock (an older kernel, a kernel built without it, a
// seccomp filter that refuses it) the process goes on unrestricted and the description says why.
write_sandbox restrict_writes_to(const write_allowance& allowed);

// The line a command prints (once: sandbox_warning) when a measuring process of code under test
// ran without a sandbox; none when `description` says one was applied or nothing is known.
std::optional<std::string> unsandboxed_warning(const std::optional<std::string>& description);

// Prints unsandboxed_warning's line on `out` the first time it has one, and never again: one
// warning per command, however many versions it runs. `for_this_process()` is the command's.
class sandbox_warning {
 public:
  explicit sandbox_warning(std::FILE* out = stderr) : m_out(out) {}
  // Whether it printed now.
  bool note(const std::optional<std::string>& description);
  static sandbox_warning& for_this_process();

 private:
  std::FILE* m_out;
  std::atomic<bool> m_warned = false;  // the versions of a round on several GPUs end on their own threads
};

}  // namespace kopt
