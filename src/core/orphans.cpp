#include "core/orphans.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

namespace kopt {
namespace fs = std::filesystem;
namespace {

// A /proc file's text, or "" when the process has gone meanwhile (reading then fails with
// ESRCH: processes come and go while the folder is scanned).
std::string file_text(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
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

// The parent of process `pid` from /proc/PID/stat ("pid (comm) state ppid ..."; the command
// name may hold spaces and parentheses, so the fields are read after its last ')').
pid_t parent_of(const std::string& pid) {
  const std::string stat = file_text(fs::path("/proc") / pid / "stat");
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  char state = 0;
  int parent = -1;
  if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &parent) != 2) return -1;
  return parent;
}

std::string command_line(const std::string& pid) {
  std::string text = file_text(fs::path("/proc") / pid / "cmdline");
  for (char& c : text) {
    if (c == '\0') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text.empty() ? "?" : text;
}

std::vector<pid_t> children_of_this_process(std::vector<std::string>& described) {
  std::vector<pid_t> found;
  const pid_t self = ::getpid();
  std::error_code ec;
  for (auto it = fs::directory_iterator("/proc", ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (parent_of(name) != self) continue;
    found.push_back(static_cast<pid_t>(std::stol(name)));  // digits only, checked above
    described.push_back(fmt::format("{} {}", name, command_line(name)));
  }
  return found;
}

}  // namespace

void adopt_orphans() { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

std::vector<std::string> kill_adopted_orphans() {
  std::vector<std::string> described;
  // An orphan's own children are adopted in turn when it dies: a few rounds end them all.
  for (int round = 0; round < 16; ++round) {
    const std::vector<pid_t> orphans = children_of_this_process(described);
    if (orphans.empty()) break;
    for (const pid_t pid : orphans) ::kill(pid, SIGKILL);
    for (const pid_t pid : orphans) {
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
  return described;
}

}  // namespace kopt
