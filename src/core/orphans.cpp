#include "core/orphans.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "core/process_table.h"

namespace kopt {
namespace fs = std::filesystem;
namespace {

std::mutex kept_mutex;
std::set<pid_t> kept_children;

bool is_kept(pid_t pid) {
  const std::lock_guard lock(kept_mutex);
  return kept_children.count(pid) != 0;
}

// "sleep 37", or "?" when it has none to give. A process caught inside exec() shows an empty
// command line for a moment: it is read again for up to 50 ms, unless the process has ended.
std::string command_line(const std::string& pid) {
  std::string text;
  for (int attempt = 0; attempt < 50; ++attempt) {
    text = process_file_text(pid, "cmdline");
    if (!text.empty()) break;
    if (first_thread_ended(read_process_ids(pid).state)) break;  // no command line to come
    ::usleep(1000);
  }
  for (char& c : text) {
    if (c == '\0') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text.empty() ? "?" : text;
}

struct child {
  pid_t pid;
  const std::string& name;  // its /proc folder
  pid_t group;
};

// Calls `visit` for every process whose parent is this one, as /proc lists them, each as it is
// found (what a caller reads of it is read at once: the process may change or go). `skip`, when
// given, is asked first, before the process's parent is read.
void for_each_own_child(const std::function<void(const child&)>& visit,
                        const std::function<bool(pid_t)>& skip = nullptr) {
  const pid_t self = ::getpid();
  std::error_code ec;
  for (auto it = fs::directory_iterator("/proc", ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto pid = static_cast<pid_t>(std::stol(name));  // digits only, checked above
    if (skip && skip(pid)) continue;
    const process_ids ids = read_process_ids(name);
    if (ids.parent != self) continue;
    visit({pid, name, ids.group});
  }
}

std::vector<pid_t> children_of_this_process(std::vector<std::string>& described, int killed_group) {
  std::vector<pid_t> found;
  // Kept children are passed over before their parent is read: one that another thread reaps
  // (and lets go of) meanwhile is gone from /proc by then, not taken for an orphan.
  for_each_own_child([&](const child& c) {
    found.push_back(c.pid);
    if (killed_group == 0 || c.group != killed_group) described.push_back(fmt::format("{} {}", c.name, command_line(c.name)));
  }, is_kept);
  return found;
}

}  // namespace

int start_own_child(const std::function<int()>& start) {
  const std::lock_guard lock(kept_mutex);
  const int pid = start();
  if (pid > 0) kept_children.insert(pid);
  return pid;
}

void release_own_child(int pid) {
  const std::lock_guard lock(kept_mutex);
  kept_children.erase(pid);
}

void end_process_group(int group) {
  if (group <= 0) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (::kill(-group, SIGKILL) == 0 && std::chrono::steady_clock::now() < deadline) {
    // Members still there: reap those that are ours, wait a moment for the rest to die.
    for_each_own_child([&](const child& c) {
      if (c.group == group) ::waitpid(c.pid, nullptr, WNOHANG);
    });
    ::usleep(1000);
  }
}

void adopt_orphans() { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

std::vector<std::string> kill_adopted_orphans(int killed_group) {
  std::vector<std::string> described;
  // An orphan's own children are adopted in turn when it dies: a few rounds end them all.
  for (int round = 0; round < 16; ++round) {
    const std::vector<pid_t> orphans = children_of_this_process(described, killed_group);
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
