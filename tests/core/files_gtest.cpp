#include "core/files.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "core/error.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;

TEST(Files, AtomicWriteCreatesParentsAndLeavesNoTempFiles) {
  testing::scratch_dir dir;
  const fs::path target = dir.path() / "a" / "b" / "out.json";
  write_file_atomic(target, "first");
  write_file_atomic(target, "second");
  EXPECT_EQ(read_text_file(target), "second");
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(target.parent_path())) ++entries;
  EXPECT_EQ(entries, 1) << "a temp file was left beside the target";
}

TEST(Files, MissingFileErrorNamesWhatAndWhere) {
  try {
    read_text_file("/nonexistent/k.cu", "kernel file");
    FAIL() << "expected an error";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "kernel file not found: /nonexistent/k.cu (check the path)");
  }
}

TEST(Files, DirectoryIsNotAFile) {
  testing::scratch_dir dir;
  EXPECT_THROW(read_text_file(dir.path(), "kernel file"), error);
}

TEST(Files, AFifoOrADeviceIsRefusedAtOnceNotRead) {
  testing::scratch_dir dir;
  const fs::path fifo = dir.path() / "k.cu";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const fs::path& path : {fifo, fs::path("/dev/zero")}) {
    try {
      read_text_file(path, "kernel file");
      FAIL() << "expected an error for " << path;
    } catch (const error& e) {
      EXPECT_EQ(e.headline(), "kernel file is not a regular file (a FIFO, device or socket): " + path.string() +
                                  "; give kopt a file");
    }
  }
}

TEST(Files, CacheRootHonoursKoptCacheDir) {
  ::setenv("KOPT_CACHE_DIR", "/tmp/some-cache", 1);
  EXPECT_EQ(cache_root(), fs::path("/tmp/some-cache"));
  ::unsetenv("KOPT_CACHE_DIR");
}

}  // namespace
}  // namespace kopt
