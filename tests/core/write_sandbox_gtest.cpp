// The write sandbox in a child process (it cannot be lifted once applied): writes under the
// allowed folders, in place to the allowed files, and reads anywhere go on; a write anywhere
// else is refused by the kernel. Without Landlock the process goes on unrestricted and says why,
// and the command warns once.
#include "core/write_sandbox.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <functional>

#include <gtest/gtest.h>

#include "core/files.h"
#include "support/kopt_process.h"
#include "support/sandboxed_child.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;

using testing::in_child;
using testing::landlock_here;

bool refused(const fs::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);
  return fd < 0 && errno == EACCES;
}

TEST(WriteSandbox, WritesGoOnlyUnderTheAllowedFoldersAndReadsEverywhere) {
  if (!landlock_here()) GTEST_SKIP() << "no Landlock on this machine: WriteSandbox.WithoutLandlock covers it";
  testing::scratch_dir allowed;
  testing::scratch_dir outside;
  write_file_atomic(outside.path() / "readable.txt", "the reference");
  const int saw = in_child([&] {
    if (!restrict_writes_to({{allowed.path()}, {}}).applied) return 10;
    if (::open((allowed.path() / "in.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600) < 0) return 11;
    if (::open((outside.path() / "readable.txt").c_str(), O_RDONLY) < 0) return 12;
    if (!refused(outside.path() / "out.txt", O_WRONLY | O_CREAT | O_TRUNC)) return 13;
    if (!refused(outside.path() / "readable.txt", O_WRONLY)) return 14;
    return 0;
  });
  EXPECT_EQ(saw, 0);
  EXPECT_TRUE(fs::exists(allowed.path() / "in.txt"));
  EXPECT_FALSE(fs::exists(outside.path() / "out.txt"));
  EXPECT_EQ(read_text_file(outside.path() / "readable.txt"), "the reference");
}

TEST(WriteSandbox, AnAllowedFileIsWrittenInPlaceOnlyNotReplacedNorItsFolderWritten) {
  if (!landlock_here()) GTEST_SKIP() << "no Landlock on this machine: WriteSandbox.WithoutLandlock covers it";
  testing::scratch_dir folder;
  write_file_atomic(folder.path() / "lock", "");
  const int saw = in_child([&] {
    if (!restrict_writes_to({{}, {folder.path() / "lock", "/dev/null"}}).applied) return 10;
    const int fd = ::open((folder.path() / "lock").c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0 || ::write(fd, "x", 1) != 1) return 11;
    ::close(fd);
    if (::open("/dev/null", O_WRONLY | O_CLOEXEC) < 0) return 12;
    if (!refused(folder.path() / "beside", O_WRONLY | O_CREAT)) return 13;
    if (::unlink((folder.path() / "lock").c_str()) == 0 || errno != EACCES) return 14;
    if (::rename((folder.path() / "lock").c_str(), (folder.path() / "moved").c_str()) == 0) return 15;
    return 0;
  });
  EXPECT_EQ(saw, 0);
  EXPECT_EQ(read_text_file(folder.path() / "lock"), "x");
  EXPECT_FALSE(fs::exists(folder.path() / "beside"));
}

TEST(WriteSandbox, TheDescriptionNamesWhatIsAllowedOrWhyThereIsNone) {
  testing::scratch_dir folder;
  write_file_atomic(folder.path() / "f", "");
  const int saw = in_child([&] {
    const write_sandbox sandbox =
        restrict_writes_to({{"/nonexistent-folder", folder.path(), folder.path() / "f"}, {"/dev/null", folder.path()}});
    if (!sandbox.applied) return sandbox.description.rfind("unavailable: ", 0) == 0 && sandbox.abi == 0 ? 0 : 20;
    // Only what exists as the kind it was given as: a file given as a folder, or a folder as a
    // file, is left out.
    const std::string expected = "writes only under " + folder.path().string() + "; in place to /dev/null";
    if (sandbox.description.find(expected) == std::string::npos) return 21;
    return sandbox.description.rfind("Landlock ABI ", 0) == 0 && sandbox.abi >= 1 ? 0 : 22;
  });
  EXPECT_EQ(saw, 0);
}

TEST(WriteSandbox, WithoutLandlockTheLineSaysWhyAndThatNothingIsRestricted) {
  EXPECT_FALSE(unsandboxed_warning(std::nullopt));
  EXPECT_FALSE(unsandboxed_warning(std::string("Landlock ABI 7: writes only under /a")));
  const std::optional<std::string> line =
      unsandboxed_warning(std::string("unavailable: this Linux kernel has no Landlock (older than 5.13, or built without it)"));
  ASSERT_TRUE(line);
  EXPECT_EQ(*line,
            "kopt: warning: no write sandbox: this Linux kernel has no Landlock (older than 5.13, or built without it); "
            "the code under test could write anywhere kopt can");
  EXPECT_EQ(line->find('\n'), std::string::npos) << "one line";
}

TEST(WriteSandbox, TheWarningIsPrintedOncePerCommand) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  sandbox_warning warning(out);
  EXPECT_FALSE(warning.note(std::string("Landlock ABI 7: writes only under /a")));
  EXPECT_FALSE(warning.note(std::nullopt));
  EXPECT_TRUE(warning.note(std::string("unavailable: Landlock is disabled in this Linux kernel (not in its lsm= list)")));
  EXPECT_FALSE(warning.note(std::string("unavailable: Landlock is disabled in this Linux kernel (not in its lsm= list)")));
  EXPECT_FALSE(warning.note(std::string("unavailable: another reason")));
  std::rewind(out);
  std::string printed;
  for (int c = std::fgetc(out); c != EOF; c = std::fgetc(out)) printed.push_back(static_cast<char>(c));
  std::fclose(out);
  EXPECT_EQ(printed,
            "kopt: warning: no write sandbox: Landlock is disabled in this Linux kernel (not in its lsm= list); the code "
            "under test could write anywhere kopt can\n");
}

}  // namespace
}  // namespace kopt
