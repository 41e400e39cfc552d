#pragma once
// Where a process may write, enforced by the operating system (Linux's Landlock, which any
// unprivileged process can apply to itself). The code under test runs as kopt's user and could
// otherwise rewrite any file kopt can (the reference, kopt's compile cache and runner, the
// user's Python packages), to make a later step agree with it or run slower. A measuring
// process of the code under test restricts itself, before any of that code is loaded and
// before it starts a thread, to writing under the folders its run needs (its result, its
// evidence, temporary files, devices); the restriction is inherited by every thread and
// process it starts and cannot be lifted. Reading, executing and device ioctls stay allowed.

#include <filesystem>
#include <string>
#include <vector>

namespace kopt {

struct write_sandbox {
  bool applied = false;
  int abi = 0;              // Landlock's ABI version (0: not available)
  std::string description;  // "writes only under: ..." or why there is none
};

// Restricts this thread (and what it starts from now on) to writing under `writable`
// (folders that do not exist are left out). Never throws: without Landlock (an older kernel,
// a seccomp filter that refuses it) the process goes on unrestricted and the description says
// why.
write_sandbox restrict_writes_to(const std::vector<std::filesystem::path>& writable);

// The folders every measuring process may write under besides its own: devices (the GPU's
// nodes are opened for writing), /proc (the process's own files) and the temporary folder
// (compilers that Triton starts, Python's tempfile).
std::vector<std::filesystem::path> common_writable_folders();

}  // namespace kopt
