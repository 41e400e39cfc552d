// The write sandbox in a child process (it cannot be lifted once applied): writes under the
// allowed folders and reads anywhere go on; a write anywhere else is refused by the kernel.
// Without Landlock (older kernels), the process goes on unrestricted and says why.
#include "core/write_sandbox.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;

// What the child saw, as its exit code.
enum child_saw { wrote_inside_refused_outside = 0, wrote_outside = 1, could_not_write_inside = 2, could_not_read = 3,
                 not_applied = 4 };

int run_in_child(const fs::path& allowed, const fs::path& outside, const fs::path& readable) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const write_sandbox sandbox = restrict_writes_to({allowed});
    if (!sandbox.applied) ::_exit(not_applied);
    if (::open((allowed / "in.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600) < 0) ::_exit(could_not_write_inside);
    if (::open(readable.c_str(), O_RDONLY) < 0) ::_exit(could_not_read);
    const int fd = ::open((outside / "out.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::_exit(fd < 0 && errno == EACCES ? wrote_inside_refused_outside : wrote_outside);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool landlock_here() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(restrict_writes_to({}).applied ? 0 : 1);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(WriteSandbox, WritesGoOnlyUnderTheAllowedFoldersAndReadsEverywhere) {
  testing::scratch_dir allowed;
  testing::scratch_dir outside;
  write_file_atomic(outside.path() / "readable.txt", "the reference");
  const int saw = run_in_child(allowed.path(), outside.path(), outside.path() / "readable.txt");
  if (!landlock_here()) {
    // A kernel without Landlock: nothing is applied, and the next test checks that it says why.
    EXPECT_EQ(saw, not_applied);
    return;
  }
  EXPECT_EQ(saw, wrote_inside_refused_outside);
  EXPECT_TRUE(fs::exists(allowed.path() / "in.txt"));
  EXPECT_FALSE(fs::exists(outside.path() / "out.txt"));
  EXPECT_EQ(read_text_file(outside.path() / "readable.txt"), "the reference");
}

TEST(WriteSandbox, TheDescriptionNamesTheFoldersOrWhyThereIsNone) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const write_sandbox sandbox = restrict_writes_to({"/nonexistent-folder", "/proc"});
    const bool named = sandbox.applied ? sandbox.description.find("writes only under /proc") != std::string::npos &&
                                             sandbox.description.find("nonexistent") == std::string::npos && sandbox.abi >= 1
                                       : sandbox.description.rfind("none: ", 0) == 0;
    ::_exit(named ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(WriteSandbox, TheCommonFoldersAreDevicesProcAndTheTemporaryFolder) {
  const auto folders = common_writable_folders();
  ASSERT_EQ(folders.size(), 3u);
  EXPECT_EQ(folders[0], fs::path("/dev"));
  EXPECT_EQ(folders[1], fs::path("/proc"));
  EXPECT_EQ(folders[2], fs::temp_directory_path());
}

}  // namespace
}  // namespace kopt
