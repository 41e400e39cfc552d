// Where kopt runs as root, not being dumpable and Landlock do not keep its memory from the code
// it runs (class 27): a measuring process that gave up its inspection rights reads neither a
// non-dumpable nor a dumpable parent, nor does a program it starts, and kopt's Python runner,
// which gives up every capability, does not read the `kopt harness` above it. As an ordinary
// user there is nothing to give up (PrivateMemory covers that case).
#include "core/inspection_rights.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "core/private_memory.h"
#include "core/subprocess.h"
#include "support/kopt_process.h"
#include "support/sandboxed_child.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;

using testing::in_child;

// Whether a byte of process `pid`'s environment or memory map could be read.
bool reads_process(pid_t pid) {
  char byte = 0;
  for (const char* page : {"/environ", "/maps"}) {
    const int fd = ::open(("/proc/" + std::to_string(pid) + page).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    const bool read = ::read(fd, &byte, 1) == 1;
    ::close(fd);
    if (read) return true;
  }
  return false;
}

// 0: the child of a process with the given dumpable state read it before and not after giving
// up its rights; 1: it could not read it even before (the test shows nothing); 2: still read.
int parent_closed_by_giving_up(int dumpable) {
  return in_child([dumpable] {
    ::prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0);
    return in_child([] {
      if (!reads_process(::getppid())) return 1;
      give_up_inspection_rights(rights_kept::none_for_inspection);
      return reads_process(::getppid()) ? 2 : 0;
    });
  });
}

class InspectionRights : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "only root holds these rights; PrivateMemory covers an ordinary user";
  }
};

TEST_F(InspectionRights, ARootProcessReadsNoParentOnceItGaveThemUp) {
  for (const int dumpable : {0, 1}) {
    const int outcome = parent_closed_by_giving_up(dumpable);
    EXPECT_NE(outcome, 1) << "dumpable " << dumpable << ": a root child could not read its parent at all";
    EXPECT_NE(outcome, 2) << "dumpable " << dumpable << ": still read its parent after giving up its rights";
  }
}

TEST_F(InspectionRights, TheDescriptionNamesWhatWasGivenUpAndWhatProfilingKeeps) {
  EXPECT_EQ(in_child([] {
              return give_up_inspection_rights(rights_kept::none_for_inspection) ==
                             "; without CAP_SYS_PTRACE, CAP_SYS_ADMIN, CAP_PERFMON"
                         ? 0
                         : 1;
            }),
            0);
  EXPECT_EQ(in_child([] {
              return give_up_inspection_rights(rights_kept::profiling_for_admins) == "; without CAP_SYS_PTRACE" ? 0 : 1;
            }),
            0);
  // Once given up there is nothing left to give up.
  EXPECT_EQ(in_child([] {
              give_up_inspection_rights(rights_kept::none_for_inspection);
              return give_up_inspection_rights(rights_kept::none_for_inspection).empty() ? 0 : 1;
            }),
            0);
}

TEST_F(InspectionRights, AProgramItStartsDoesNotGetThemBack) {
  // The grader (not dumpable) -> a process that gave up its rights -> `cat` of the grader's
  // environment: root regains every right in its bounding set at each exec.
  const int outcome = in_child([] {
    keep_memory_private();
    const pid_t grader = ::getpid();
    return in_child([grader] {
      give_up_inspection_rights(rights_kept::none_for_inspection);
      const pid_t cat = ::fork();
      if (cat == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
        const std::string environ = "/proc/" + std::to_string(grader) + "/environ";
        ::execlp("cat", "cat", environ.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
      }
      int status = 0;
      ::waitpid(cat, &status, 0);
      return WIFEXITED(status) ? WEXITSTATUS(status) : 126;
    });
  });
  EXPECT_NE(outcome, 0) << "a program started after the rights were given up read the grader's environment";
  EXPECT_NE(outcome, 127) << "cat could not be started";
}

TEST_F(InspectionRights, ThePythonRunnerDoesNotReadTheHarnessAboveIt) {
  // The harness (dumpable: ncu and compute-sanitizer work on it) gave up the three rights; the
  // runner it starts gives up every capability, so it holds fewer than the harness.
  const fs::path share = testing::kopt_binary().parent_path().parent_path() / "share" / "kopt";
  const std::string script =
      "import os\nfrom kopt_runtime import write_sandbox\n"
      "print(write_sandbox.give_up_capabilities(False))\n"
      "try:\n"
      "    open(f'/proc/{os.getppid()}/environ', 'rb').read(1)\n"
      "    print('read')\n"
      "except PermissionError:\n"
      "    print('refused')\n";
  const int outcome = in_child([&] {
    give_up_inspection_rights(rights_kept::none_for_inspection);
    const process_result run = run_process({.argv = {"python3", "-c", script},
                                            .extra_env = {{"PYTHONPATH", share.string()}},
                                            .timeout = std::chrono::seconds(60)});
    if (!run.succeeded()) return 3;
    if (run.stdout_text != "; without any capability\nrefused\n") return 4;
    return 0;
  });
  EXPECT_NE(outcome, 3) << "python3 with kopt_runtime did not run";
  EXPECT_NE(outcome, 4) << "the runner did not give up every capability, or read the harness's environment";
  EXPECT_EQ(outcome, 0);
}

}  // namespace
}  // namespace kopt
