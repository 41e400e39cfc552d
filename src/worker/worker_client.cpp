#include "worker/worker_client.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "core/error.h"
#include "core/file_lock.h"
#include "core/process_table.h"
#include "worker/descriptor_passing.h"
#include "worker/file_descriptor.h"

namespace kopt::worker {
namespace fs = std::filesystem;
namespace {

constexpr std::chrono::seconds start_limit{10};  // for a new worker to listen
constexpr std::chrono::hours no_limit{24 * 365};

// A connection to the worker at `path`; -1 when nothing listens there.
int connect_to(const fs::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Starts `argv` as a daemon of its own session: not this process's child, its output in `log`.
bool start_daemon(const std::vector<std::string>& argv, const fs::path& log) {
  const pid_t first = ::fork();
  if (first < 0) return false;
  if (first == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);  // the grandchild is adopted: nobody's child to reap
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (in < 0 || out < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    if (::chdir("/") != 0) ::_exit(127);
    // Nothing else of the client's goes along: a pipe its caller reads to the end, or the lock
    // on starting a worker, would otherwise stay open for the worker's whole life.
    if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
      for (int fd = 3; fd < 4096; ++fd) ::close(fd);
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(first, &status, 0) < 0 && errno == EINTR) {
  }
  return true;
}

// A connection to this kopt's worker, started when none listens; -1 when it could not be.
int connect_or_start(const identity& id, const std::vector<std::string>& start_argv, std::vector<std::string>& notes) {
  const fs::path socket = socket_path(id);
  if (const int fd = connect_to(socket); fd >= 0) return fd;
  // One client starts the worker; the others wait for it here, then connect.
  file_lock starting(fs::path(socket).replace_extension(".lock"));
  starting.lock();
  if (const int fd = connect_to(socket); fd >= 0) return fd;
  std::error_code ec;
  fs::remove(socket, ec);  // a worker that was killed left it
  if (!start_daemon(start_argv, log_path(id))) {
    notes.push_back("kopt: the warm worker could not be started; running this command on its own");
    return -1;
  }
  const auto deadline = std::chrono::steady_clock::now() + start_limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (const int fd = connect_to(socket); fd >= 0) return fd;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  notes.push_back(fmt::format("kopt: the warm worker did not start within {} s (its log: {}); running this command "
                              "on its own",
                              start_limit.count(), log_path(id).string()));
  return -1;
}

// Waits (up to 5 s) for the worker at the other end of `connection` to have ended. A worker
// that is being killed can still take connections for a moment after it dropped one: the next
// attempt must not find it again. The kernel tells whose socket it is (the process that listened).
void wait_for_its_end(int connection) {
  ucred listener{};
  socklen_t size = sizeof listener;
  if (::getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &listener, &size) != 0 || listener.pid <= 0) return;
  const std::string pid = std::to_string(listener.pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!process_has_ended(pid) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

std::optional<int> run_in_worker(const identity& id, const std::vector<std::string>& words,
                                 const std::vector<std::string>& start_argv, std::vector<std::string>& notes) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) throw error(fmt::format("the current folder is gone: {}", ec.message()));
  // A worker can end between taking a connection and starting its command (killed, or at its
  // idle limit with the connection not yet accepted): the command never ran, so a new worker
  // may take it. Once more only: a worker that keeps ending that way is not to be relied on.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const file_descriptor c(connect_or_start(id, start_argv, notes));
    if (c.get() < 0) return std::nullopt;
    std::fflush(nullptr);
    try {
      send_message(c.get(), json{{"do", "run"}, {"identity", id.digest}, {"cwd", cwd.string()}, {"words", words}},
                   {0, 1, 2});
    } catch (const error&) {
      wait_for_its_end(c.get());  // it went before reading the command
      continue;
    }
    const std::optional<received_message> first = receive_message(c.get(), no_limit);
    if (!first) {
      wait_for_its_end(c.get());  // it went before starting the command
      continue;
    }
    for (int fd : first->fds) ::close(fd);
    if (first->message.contains("refused")) {
      notes.push_back(fmt::format("kopt: the warm worker refused the command ({}); running it on its own",
                                  first->message["refused"].get<std::string>()));
      return std::nullopt;
    }
    const std::optional<received_message> reply = receive_message(c.get(), no_limit);
    if (!reply) {
      throw error("the warm worker ended during this command, which did not finish",
                  fmt::format("run it again: the next command starts a new worker (its log: {})", log_path(id).string()));
    }
    for (int fd : reply->fds) ::close(fd);
    return reply->message.value("exit_code", 2);
  }
  notes.push_back(fmt::format("kopt: the warm worker ended twice before starting the command (its log: {}); running "
                              "it on its own",
                              log_path(id).string()));
  return std::nullopt;
}

std::optional<json> start_worker(const identity& id, const std::vector<std::string>& start_argv,
                                 std::vector<std::string>& notes) {
  {
    const file_descriptor c(connect_or_start(id, start_argv, notes));
    if (c.get() < 0) return std::nullopt;
  }
  return ask_worker(id, "status");
}

std::optional<json> ask_worker(const identity& id, std::string_view what) {
  const file_descriptor c(connect_to(socket_path(id)));
  if (c.get() < 0) return std::nullopt;
  send_message(c.get(), json{{"do", std::string(what)}, {"identity", id.digest}});
  const std::optional<received_message> reply = receive_message(c.get(), std::chrono::seconds(10));
  if (!reply) return std::nullopt;
  for (int fd : reply->fds) ::close(fd);
  return reply->message;
}

}  // namespace kopt::worker
