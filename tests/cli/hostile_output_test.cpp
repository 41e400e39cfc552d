// Reproducers: output paths were replaced, not written. `memory export` and `report --html`
// renamed a temp file over whatever was there: a link, a FIFO or a device became a regular
// file, a 0600 file became 0644. A link must be followed, a FIFO or device written through, a
// file keep its mode, and a folder or socket be refused in one line.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "hostile_input.h"

namespace kopt::hostile {
namespace {
using testing::first_line;
using testing::run_kopt;

// `kopt memory export TARGET` into a memory holding one outcome.
process_result export_to(const fs::path& target, const scratch_dir& dir) {
  const fs::path db = dir.path() / "memory.db";
  if (!fs::exists(db)) {
    const json one = memory_export(json::array({exported_outcome("r", "cuda", {"baseline"}, "40f2b8f0ca5ba355")}));
    const auto imported =
        run_kopt({"memory", "import", dir.write("one.json", json_text(one)).string(), "--memory-db", db.string()});
    EXPECT_EQ(imported.exit_code, 0) << imported.stderr_text;
  }
  return run_kopt({"memory", "export", target.string(), "--memory-db", db.string()}, {}, dir.path());
}

TEST(HostileInput, AnOutputPathThatIsALinkIsFollowedAndAFileKeepsItsMode) {
  scratch_dir dir;
  const fs::path target = dir.write("kept/export.json", "old");
  ::chmod(target.c_str(), 0600);
  const fs::path link = dir.path() / "link.json";
  fs::create_symlink(target, link);
  const auto r = export_to(link, dir);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_NE(bytes_of(target).find("kopt.strategy_memory/v1"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);

  // And the report's page, over a 0640 file.
  const fs::path run = copy_of_fixture_run(dir, "run_x");
  const fs::path page = dir.write("page.html", "old");
  ::chmod(page.c_str(), 0640);
  ASSERT_EQ(run_kopt({"report", run.string(), "--html", page.string()}).exit_code, 0);
  ASSERT_EQ(::stat(page.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_NE(bytes_of(page).find("<html"), std::string::npos);
}

TEST(HostileInput, AFifoADeviceOrStandardOutputIsWrittenThrough) {
  scratch_dir dir;
  const fs::path fifo = dir.path() / "export.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The reading end is open before kopt runs, without blocking: an export is far smaller than
  // a pipe's buffer, and a kopt that replaced the FIFO leaves nothing to wait for.
  const int reading_end = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reading_end, 0);
  const auto r = export_to(fifo, dir);
  std::string received;
  char buffer[4096];
  for (ssize_t n = ::read(reading_end, buffer, sizeof buffer); n > 0; n = ::read(reading_end, buffer, sizeof buffer)) {
    received.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(reading_end);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(received.find("kopt.strategy_memory/v1"), std::string::npos) << received;
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));

  // "-", and a link to this process's standard output (what /dev/stdout is).
  const auto dash = export_to("-", dir);
  EXPECT_EQ(dash.exit_code, 0) << dash.stderr_text;
  EXPECT_FALSE(json::parse(dash.stdout_text, nullptr, false).is_discarded()) << "stdout is the export, whole";
  EXPECT_NE(dash.stdout_text.find("kopt.strategy_memory/v1"), std::string::npos) << dash.stdout_text;
  EXPECT_FALSE(fs::exists(dir.path() / "-"));
  const fs::path out_link = dir.path() / "stdout";
  fs::create_symlink("/proc/self/fd/1", out_link);
  const auto through_link = export_to(out_link, dir);
  EXPECT_EQ(through_link.exit_code, 0) << through_link.stderr_text;
  EXPECT_NE(through_link.stdout_text.find("kopt.strategy_memory/v1"), std::string::npos);
  EXPECT_TRUE(fs::is_symlink(out_link));

  // A character device (a copy of /dev/null's node, where this test may make one).
  const fs::path device = dir.path() / "null";
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "cannot make a device node here";
  const fs::path run = copy_of_fixture_run(dir, "run_x");
  const auto page = run_kopt({"report", run.string(), "--html", device.string()});
  EXPECT_EQ(page.exit_code, 0) << page.stderr_text;
  ASSERT_EQ(::lstat(device.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node was replaced";
}

TEST(HostileInput, ADirectoryOrASocketAsOutputIsRefused) {
  scratch_dir dir;
  const fs::path folder = dir.path() / "folder";
  fs::create_directory(folder);
  const auto to_folder = export_to(folder, dir);
  expect_one_line_error(to_folder, "a folder");
  EXPECT_TRUE(fs::is_directory(folder));

  const fs::path socket_path = dir.path() / "s.sock";
  const testing::bound_socket socket(socket_path);
  const auto to_socket = export_to(socket_path, dir);
  expect_one_line_error(to_socket, "a socket");
  EXPECT_NE(first_line(to_socket.stderr_text).find(socket_path.string()), std::string::npos) << to_socket.stderr_text;
  struct stat st {};
  ASSERT_EQ(::lstat(socket_path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode)) << "the socket was replaced";
}

}  // namespace
}  // namespace kopt::hostile
