#include "core/file_lock.h"

#include <filesystem>
#include <memory>

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

// How a measuring process whose writes are restricted takes the GPU's lock: it opens the file
// for reading only, and creates nothing.
TEST(FileLock, AnExistingFileOpenedForReadingLocksLikeAnyOther) {
  testing::scratch_dir dir;
  const auto path = dir.path() / "gpu.lock";
  EXPECT_EQ(file_lock::open_existing(path), nullptr);
  EXPECT_FALSE(std::filesystem::exists(path));
  { const file_lock made(path); }
  const std::unique_ptr<file_lock> reader = file_lock::open_existing(path);
  ASSERT_NE(reader, nullptr);
  ASSERT_TRUE(reader->try_lock());
  file_lock other(path);
  EXPECT_FALSE(other.try_lock());
}

// Two processes making their CUDA contexts ahead hold it side by side; a measurement waits for
// both, and while one measures neither can start.
TEST(FileLock, SharedHoldersGoTogetherAndExcludeTheExclusiveOne) {
  testing::scratch_dir dir;
  const auto path = dir.path() / "gpu.lock";
  auto kernel_ahead = std::make_unique<file_lock>(path);
  auto reference_ahead = std::make_unique<file_lock>(path);
  ASSERT_TRUE(kernel_ahead->try_lock_shared());
  EXPECT_TRUE(reference_ahead->try_lock_shared());
  file_lock measuring(path);
  EXPECT_FALSE(measuring.try_lock());
  kernel_ahead.reset();
  EXPECT_FALSE(measuring.try_lock()) << "one shared holder is left";
  reference_ahead.reset();
  ASSERT_TRUE(measuring.try_lock());
  file_lock late(path);
  EXPECT_FALSE(late.try_lock_shared());
}

}  // namespace
}  // namespace kopt
