#include "core/process_table.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

namespace kopt {
namespace fs = std::filesystem;

std::string process_file_text(const std::string& pid, const std::string& name) {
  // Reading a file of a process that has just gone fails with ESRCH: that is "".
  const int fd = ::open((fs::path("/proc") / pid / name).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string text;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

process_ids read_process_ids(const std::string& pid) {
  const std::string stat = process_file_text(pid, "stat");
  const std::size_t close = stat.rfind(')');
  process_ids ids;
  if (close == std::string::npos) return ids;
  char state = 0;
  int parent = -1;
  int group = -1;
  if (std::sscanf(stat.c_str() + close + 1, " %c %d %d", &state, &parent, &group) != 3) return ids;
  return {parent, group, state};
}

bool first_thread_ended(char state) {
  return state == 0 || state == 'Z' || state == 'X';
}

bool process_has_ended(const std::string& pid) {
  if (!first_thread_ended(read_process_ids(pid).state)) return false;
  // A first thread that ended shows as a zombie while its other threads still end (and the
  // descriptors they share stay open): the process has ended when it is alone in its task list
  // (or gone, with no list at all).
  std::error_code ec;
  int threads = 0;
  for (auto it = fs::directory_iterator(fs::path("/proc") / pid / "task", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    ++threads;
  }
  return threads <= 1;
}

}  // namespace kopt
