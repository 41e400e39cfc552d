// The judge's memory kept from processes of its own user (class 27): once kopt is not dumpable,
// a process of the same user reads neither its /proc/PID/mem nor its environ. Run as root, the
// test first becomes an ordinary user (root may read any process's memory whatever its state).
#include "core/private_memory.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/sandboxed_child.h"

namespace kopt {
namespace {

// A variable in this process's memory, at the same address in a forked child.
volatile std::uint64_t secret = 0x6b6f70745f6b6579ULL;

// In a child of the calling process (same user): 0 when it read `secret` from its parent's
// /proc/PID/mem and a byte of its environ, 1 when both were refused, 2 when only one was.
int child_reads_parent() {
  return testing::in_child([] {
    const std::string parent = "/proc/" + std::to_string(::getppid());
    std::uint64_t value = 0;
    bool memory = false;
    const int fd = ::open((parent + "/mem").c_str(), O_RDONLY);
    if (fd >= 0) {
      memory = ::pread(fd, &value, sizeof value, static_cast<off_t>(reinterpret_cast<std::uintptr_t>(&secret))) ==
                   sizeof value &&
               value == secret;
      ::close(fd);
    }
    std::ifstream environ(parent + "/environ", std::ios::binary);
    const bool environment = environ.good() && environ.get() != std::char_traits<char>::eof();
    if (memory && environment) return 0;
    return !memory && !environment ? 1 : 2;
  });
}

// Whether the system's ptrace policy lets a child read its parent at all (Yama's ptrace_scope
// 1 or more does not): without it, the first half of the test shows nothing.
bool parent_readable_by_policy() {
  std::ifstream scope("/proc/sys/kernel/yama/ptrace_scope");
  int value = 0;
  return !(scope >> value) || value == 0;
}

TEST(PrivateMemory, AProcessOfTheSameUserReadsNeitherMemoryNorEnvironment) {
  const int outcome = testing::in_child([] {
    if (::geteuid() == 0 && (::setresgid(65534, 65534, 65534) != 0 || ::setresuid(65534, 65534, 65534) != 0)) {
      return 10;
    }
    ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);  // a change of user made it not dumpable: as a fresh process
    const int before = child_reads_parent();
    keep_memory_private();
    if (::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0) return 11;
    const int after = child_reads_parent();
    if (after != 1) return 20 + after;
    if (parent_readable_by_policy() && before != 0) return 30 + before;
    return 0;
  });
  EXPECT_NE(outcome, 10) << "could not become user 65534 to test as an ordinary user";
  EXPECT_NE(outcome, 11) << "still dumpable after keep_memory_private()";
  EXPECT_LT(outcome, 20) << "after keep_memory_private(), a child of the same user still read "
                         << (outcome == 20 ? "its memory and environment" : "one of its memory and environment");
  EXPECT_LT(outcome, 30) << "before keep_memory_private(), a child could not read its parent: the test shows nothing";
  EXPECT_EQ(outcome, 0);
}

}  // namespace
}  // namespace kopt
