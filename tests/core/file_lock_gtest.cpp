#include "core/file_lock.h"

#include <gtest/gtest.h>

#include "support/kopt_process.h"

namespace kopt {
namespace {

TEST(FileLock, SecondHolderWaitsUntilTheFirstReleases) {
  testing::scratch_dir dir;
  const auto path = dir.path() / "locks" / "gpu.lock";
  auto first = std::make_unique<file_lock>(path);
  ASSERT_TRUE(first->try_lock());
  file_lock second(path);
  EXPECT_FALSE(second.try_lock());
  first.reset();
  EXPECT_TRUE(second.try_lock());
}

TEST(FileLock, AnotherProcessSeesTheLock) {
  testing::scratch_dir dir;
  const auto path = dir.path() / "gpu.lock";
  file_lock held(path);
  ASSERT_TRUE(held.try_lock());
  // flock(1) from util-linux: -n fails at once when the lock is taken.
  const auto r = run_process({.argv = {"flock", "-n", path.string(), "true"}});
  ASSERT_TRUE(r.started) << r.start_error;
  EXPECT_NE(r.exit_code, 0);
}

}  // namespace
}  // namespace kopt
