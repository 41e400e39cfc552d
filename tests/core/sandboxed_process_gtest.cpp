// A program started under a write sandbox from a thread of its own: it writes only what it was
// allowed, what it starts inherits that, and kopt's other threads keep every right; and a
// private folder under such a sandbox falls back to the temporary folder when /dev/shm refuses.
#include "core/sandboxed_process.h"

#include <stdlib.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/private_folder.h"
#include "support/kopt_process.h"
#include "support/sandboxed_child.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;
using testing::in_child;
using testing::landlock_here;

TEST(SandboxedProcess, TheProgramWritesOnlyWhatItWasAllowedAndKoptStaysFree) {
  if (!landlock_here()) GTEST_SKIP() << "no Landlock on this machine's Linux kernel: nothing to restrict with";
  testing::scratch_dir dir;
  const fs::path allowed = dir.path() / "allowed";
  const fs::path in_place = dir.write("in_place.txt", "before\n");
  fs::create_directories(allowed);
  process_request request;
  // The second write is from a grandchild: it inherits the restriction.
  request.argv = {"sh", "-c",
                  "echo a > '" + (allowed / "a.txt").string() + "' && echo b > '" + in_place.string() +
                      "' && sh -c \"echo c > '" + (dir.path() / "c.txt").string() + "'\"; echo done $?"};
  const sandboxed_run run = run_process_sandboxed(request, {{allowed}, {in_place}});
  ASSERT_TRUE(run.sandbox.applied) << run.sandbox.description;
  ASSERT_TRUE(run.process.started) << run.process.start_error;
  EXPECT_EQ(run.process.stdout_text, "done 2\n") << run.process.stderr_text;
  EXPECT_EQ(read_text_file(allowed / "a.txt"), "a\n");
  EXPECT_EQ(read_text_file(in_place), "b\n");
  EXPECT_FALSE(fs::exists(dir.path() / "c.txt"));
  // This thread (kopt) was never restricted.
  write_file_atomic(dir.path() / "after.txt", "free");
  EXPECT_EQ(read_text_file(dir.path() / "after.txt"), "free");
}

TEST(SandboxedProcess, TheProbeSaysWhetherASandboxCanBeApplied) {
  EXPECT_EQ(probe_write_sandbox().applied, landlock_here());
  testing::scratch_dir dir;
  write_file_atomic(dir.path() / "after.txt", "free");  // the probe's thread took its restriction along
}

TEST(PrivateFolder, UnderASandboxThatClosesDevShmItIsMadeInTheTemporaryFolder) {
  if (!landlock_here()) GTEST_SKIP() << "no Landlock on this machine's Linux kernel: /dev/shm cannot be closed";
  if (!fs::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm here: the temporary folder is the only place";
  testing::scratch_dir dir;
  const int code = in_child([&] {
    ::setenv("TMPDIR", dir.path().c_str(), 1);
    if (!restrict_writes_to({{dir.path()}, {}}).applied) return 3;
    try {
      const private_folder folder("kopt-test", "the test");
      return folder.path().parent_path() == dir.path() && fs::is_directory(folder.path()) ? 0 : 4;
    } catch (...) {
      return 5;
    }
  });
  EXPECT_EQ(code, 0);
}

}  // namespace
}  // namespace kopt
