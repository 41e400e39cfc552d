#include "core/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "core/cancellation.h"
#include "core/orphans.h"
#include "core/process_spawn.h"

extern char** environ;

namespace kopt {
namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

std::string process_result::describe_end() const {
  if (!started) return fmt::format("could not start: {}", start_error);
  if (cancelled) return "cancelled, and killed";
  if (timed_out) {
    return fmt::format("timed out after {:.1f} s and was killed",
                       static_cast<double>(elapsed.count()) / 1000.0);
  }
  if (term_signal != 0) {
    return fmt::format("killed by signal {} ({})", term_signal, ::strsignal(term_signal));
  }
  return fmt::format("exit code {}", exit_code);
}

std::optional<fs::path> find_executable(const std::string& name) {
  const auto is_executable = [](const fs::path& p) {
    struct stat info {};
    return ::stat(p.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (is_executable(name)) return fs::absolute(name);
    return std::nullopt;
  }
  const char* path_env = std::getenv("PATH");
  std::string path_list = path_env != nullptr ? path_env : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= path_list.size()) {
    size_t end = path_list.find(':', start);
    if (end == std::string::npos) end = path_list.size();
    const std::string dir = path_list.substr(start, end - start);
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (is_executable(candidate)) return fs::absolute(candidate);
    start = end + 1;
  }
  return std::nullopt;
}

namespace {

// Owns a pipe's two ends and closes whatever is still open.
struct pipe_pair {
  std::array<int, 2> fds{-1, -1};
  bool open() { return ::pipe2(fds.data(), O_CLOEXEC) == 0; }
  void close_end(int i) {
    if (fds[i] >= 0) ::close(fds[i]);
    fds[i] = -1;
  }
  ~pipe_pair() {
    close_end(0);
    close_end(1);
  }
};

std::vector<std::string> child_environment(const process_request& request) {
  std::set<std::string> replaced;
  for (const auto& [key, value] : request.extra_env) replaced.insert(key);
  for (const auto& key : request.unset_env) replaced.insert(key);
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const std::string key = text.substr(0, text.find('='));
    if (replaced.count(key) == 0) env.push_back(text);
  }
  for (const auto& [key, value] : request.extra_env) env.push_back(key + "=" + value);
  return env;
}

// What is left in a pipe once its writer has exited (processes it left holding the pipe are
// not waited for).
void drain(int fd, std::string& sink) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      sink.append(buffer, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return;
    }
  }
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

int spawn_on_socket(const process_request& request, spawned_process& spawned, process_result& result) {
  int ends[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    result.start_error = "socketpair failed";
    return -1;
  }
  spawned = spawn_process(request, ends[1], result);
  ::close(ends[1]);
  if (spawned.pid <= 0) {
    ::close(ends[0]);
    return -1;
  }
  return ends[0];
}

spawned_process spawn_process(const process_request& request, int stdin_fd, process_result& result) {
  spawned_process spawned;
  if (request.argv.empty()) {
    result.start_error = "empty command";
    return spawned;
  }
  const std::optional<fs::path> program = find_executable(request.argv[0]);
  if (!program) {
    result.start_error = fmt::format("{} not found or not executable", request.argv[0]);
    return spawned;
  }

  pipe_pair out_pipe;
  pipe_pair err_pipe;
  if (!out_pipe.open() || !err_pipe.open()) {
    result.start_error = fmt::format("pipe: {}", std::strerror(errno));
    return spawned;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdin_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, out_pipe.fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe.fds[1], 2);
  for (const auto& [here, there] : request.pass_fds) posix_spawn_file_actions_adddup2(&actions, here, there);
  if (request.working_dir) {
    posix_spawn_file_actions_addchdir_np(&actions, request.working_dir->c_str());
  }
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Own process group, so a timeout kills the program's children too.
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t default_signals;
  sigemptyset(&default_signals);
  sigaddset(&default_signals, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &default_signals);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> argv_copy = request.argv;
  std::vector<std::string> env_copy = child_environment(request);
  std::vector<char*> argv_pointers = pointers_to(argv_copy);
  std::vector<char*> env_pointers = pointers_to(env_copy);

  if (request.ends_with_program) adopt_orphans();
  pid_t pid = -1;
  int spawn_rc = 0;
  start_own_child([&] {
    spawn_rc = ::posix_spawn(&pid, program->c_str(), &actions, &attributes, argv_pointers.data(), env_pointers.data());
    return spawn_rc == 0 ? pid : -1;
  });
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawn_rc != 0) {
    result.start_error = fmt::format("{}: {}", program->string(), std::strerror(spawn_rc));
    return spawned;
  }
  result.started = true;
  spawned.pid = pid;
  spawned.out = out_pipe.fds[0];
  spawned.err = err_pipe.fds[0];
  out_pipe.fds[0] = -1;  // now the spawned_process's
  err_pipe.fds[0] = -1;
  return spawned;
}

void wait_for_process(spawned_process& spawned, const process_request& request,
                      std::chrono::steady_clock::time_point start_time, process_result& result) {
  const pid_t pid = spawned.pid;
  const bool has_deadline = request.timeout.count() > 0;
  const auto deadline = start_time + request.timeout;
  // With ends_with_program, a pidfd tells when the program itself has exited (-1 where the
  // kernel has no pidfd_open: then, as otherwise, reading ends when the pipes close).
  const int exit_fd = request.ends_with_program ? static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)) : -1;
  std::array<pollfd, 3> polls{pollfd{spawned.out, POLLIN, 0}, pollfd{spawned.err, POLLIN, 0},
                              pollfd{exit_fd, POLLIN, 0}};
  std::array<std::string*, 2> sinks{&result.stdout_text, &result.stderr_text};
  int open_streams = 2;
  char buffer[65536];
  // A cancellable thread looks at its flag between waits of at most this long.
  constexpr int cancel_check_ms = 100;
  while (open_streams > 0) {
    if (thread_cancelled()) {
      result.cancelled = true;
      break;
    }
    int wait_ms = -1;
    if (has_deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
      if (left.count() <= 0) {
        result.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left.count());
    }
    if (thread_cancellable() && (wait_ms < 0 || wait_ms > cancel_check_ms)) wait_ms = cancel_check_ms;
    const int ready = ::poll(polls.data(), polls.size(), wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) break;
    if (polls[2].fd >= 0 && polls[2].revents != 0) {
      for (size_t i = 0; i < sinks.size(); ++i) {
        if (polls[i].fd >= 0) drain(polls[i].fd, *sinks[i]);
      }
      break;
    }
    for (size_t i = 0; i < sinks.size(); ++i) {
      if (polls[i].fd < 0 || polls[i].revents == 0) continue;
      const ssize_t n = ::read(polls[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        polls[i].fd = -1;  // poll ignores negative descriptors
        --open_streams;
      }
    }
  }
  if (result.timed_out || result.cancelled) ::kill(-pid, SIGKILL);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  release_own_child(pid);
  spawned.pid = -1;
  // Grandchildren that inherited the pipes would otherwise outlive a timed-out run; those kopt
  // adopted (a subreaper) are reaped too, or their zombies would later be taken for processes
  // the next measuring child left running.
  if (result.timed_out || result.cancelled) end_process_group(pid);
  if (exit_fd >= 0) ::close(exit_fd);
  if (request.ends_with_program) {
    result.left_running = kill_adopted_orphans(result.timed_out || result.cancelled ? pid : 0);
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now() - start_time);
}

spawned_process::~spawned_process() {
  if (pid > 0) {
    // Never waited for (a gate never opened): it ends with its group, every member reaped.
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    release_own_child(pid);
    end_process_group(pid);
  }
  if (out >= 0) ::close(out);
  if (err >= 0) ::close(err);
}

std::string start_in_background(const process_request& request) {
  process_result result;
  spawned_process spawned = spawn_process(request, -1, result);
  if (!result.started) return result.start_error;
  std::thread([spawned = std::move(spawned), request]() mutable {
    process_result ended;
    wait_for_process(spawned, request, clock_type::now(), ended);
  }).detach();
  return "";
}

process_result run_process(const process_request& request) {
  process_result result;
  const auto start_time = clock_type::now();
  spawned_process spawned = spawn_process(request, -1, result);
  if (!result.started) return result;
  wait_for_process(spawned, request, start_time, result);
  return result;
}

}  // namespace kopt
