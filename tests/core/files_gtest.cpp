#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>


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

mode_t mode_of(const fs::path& file) {
  struct stat st {};
  EXPECT_EQ(::lstat(file.c_str(), &st), 0) << file;
  return st.st_mode;
}

TEST(Files, AnExistingFileIsReplacedWholeWithItsMode) {
  testing::scratch_dir dir;
  const fs::path file = dir.write("private.json", "old");
  ::chmod(file.c_str(), 0600);
  write_file_atomic(file, "new");
  EXPECT_EQ(read_text_file(file), "new");
  EXPECT_EQ(mode_of(file) & 07777, 0600u);
  const fs::path fresh = dir.path() / "fresh.json";
  write_file_atomic(fresh, "x");
  EXPECT_EQ(mode_of(fresh) & 07777, 0644u);
}

TEST(Files, ALinkIsFollowedToItsTargetWhetherItExistsOrNot) {
  testing::scratch_dir dir;
  const fs::path target = dir.write("real/target.txt", "old");
  ::chmod(target.c_str(), 0640);
  const fs::path link = dir.path() / "link.txt";
  fs::create_symlink("real/target.txt", link);  // relative, as a person makes one
  write_file_atomic(link, "new");
  EXPECT_TRUE(S_ISLNK(mode_of(link)));
  EXPECT_EQ(read_text_file(target), "new");
  EXPECT_EQ(mode_of(target) & 07777, 0640u);
  const fs::path dangling = dir.path() / "dangling.txt";
  fs::create_symlink(dir.path() / "later" / "made.txt", dangling);
  write_file_atomic(dangling, "made");
  EXPECT_TRUE(S_ISLNK(mode_of(dangling)));
  EXPECT_EQ(read_text_file(dir.path() / "later" / "made.txt"), "made");
}

TEST(Files, AFifoIsWrittenThroughNotReplaced) {
  testing::scratch_dir dir;
  const fs::path fifo = dir.path() / "out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Open to read first, without blocking: a writer that replaced the FIFO leaves nothing to wait for.
  const int reading_end = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reading_end, 0);
  write_file_atomic(fifo, "through");
  char buffer[64] = {};
  const ssize_t n = ::read(reading_end, buffer, sizeof buffer);
  ::close(reading_end);
  EXPECT_EQ(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0), "through");
  EXPECT_TRUE(S_ISFIFO(mode_of(fifo)));
  write_file_atomic("/dev/null", "nothing");  // a character device: written, never replaced
  EXPECT_TRUE(S_ISCHR(mode_of("/dev/null")));
}

TEST(Files, AFolderASocketOrALinkThatLoopsIsRefusedWithItsName) {
  testing::scratch_dir dir;
  const fs::path folder = dir.path() / "folder";
  fs::create_directory(folder);
  const fs::path loop = dir.path() / "loop";
  fs::create_symlink(loop, loop);
  const fs::path socket_path = dir.path() / "s.sock";
  const testing::bound_socket socket(socket_path);
  const std::vector<std::pair<fs::path, std::string>> cases = {
      {folder, "it is a folder"}, {socket_path, "it is a socket"}, {loop, "Too many levels of symbolic links"},
      {loop / "inside.json", "Too many levels of symbolic links"}};
  for (const auto& [path, why] : cases) {
    try {
      write_file_atomic(path, "x");
      ADD_FAILURE() << path << " was written";
    } catch (const error& e) {
      EXPECT_EQ(e.headline().rfind("cannot write " + path.string() + ": ", 0), 0u) << e.headline();
      EXPECT_NE(e.headline().find(why), std::string::npos) << e.headline();
    }
  }
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_TRUE(fs::is_symlink(loop));
}

TEST(Files, CacheRootHonoursKoptCacheDir) {
  ::setenv("KOPT_CACHE_DIR", "/tmp/some-cache", 1);
  EXPECT_EQ(cache_root(), fs::path("/tmp/some-cache"));
  ::unsetenv("KOPT_CACHE_DIR");
}

}  // namespace
}  // namespace kopt
