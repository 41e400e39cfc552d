// What /proc says of a process: a running child has not ended; one that ended and was not
// reaped yet (a zombie) has; so has a process that is gone; a zombie first thread whose other
// thread still runs has not (their shared descriptors are still open).
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "core/process_table.h"

namespace kopt {
namespace {

// Waits up to 5 s for `pid` to read as ended or not, as `wanted`.
bool reads_as(pid_t pid, bool wanted) {
  for (int i = 0; i < 500; ++i) {
    if (process_has_ended(std::to_string(pid)) == wanted) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(ProcessTable, ARunningChildHasNotEndedAZombieHasAndSoHasAReapedOne) {
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    char byte = 0;
    ::close(go[1]);
    const ssize_t got = ::read(go[0], &byte, 1);  // until the parent closes its end
    ::_exit(got < 0 ? 1 : 0);
  }
  ::close(go[0]);
  const process_ids ids = read_process_ids(std::to_string(child));
  EXPECT_EQ(ids.parent, ::getpid());
  EXPECT_FALSE(process_has_ended(std::to_string(child)));
  ::close(go[1]);
  EXPECT_TRUE(reads_as(child, true)) << "a zombie, not yet reaped";
  EXPECT_EQ(read_process_ids(std::to_string(child)).state, 'Z');
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  EXPECT_TRUE(process_has_ended(std::to_string(child)));
  EXPECT_EQ(read_process_ids(std::to_string(child)).state, 0);
}

TEST(ProcessTable, AFirstThreadThatEndedWhileAnotherRunsHasNotEnded) {
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(go[1]);
    std::thread([fd = go[0]] {
      char byte = 0;
      const ssize_t got = ::read(fd, &byte, 1);
      ::_exit(got < 0 ? 1 : 0);
    }).detach();
    // The first thread ends, and only it (exit, not exit_group; no unwinding through the
    // test framework): the process goes on in the other.
    ::syscall(SYS_exit, 0);
  }
  ::close(go[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(process_has_ended(std::to_string(child)))
      << process_file_text(std::to_string(child), "status");
  ::close(go[1]);
  EXPECT_TRUE(reads_as(child, true));
  ::waitpid(child, nullptr, 0);
}

}  // namespace
}  // namespace kopt
