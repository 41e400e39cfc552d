#include "worker/worker_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/after_the_answer.h"
#include "core/cancellation.h"
#include "core/error.h"
#include "core/utc_time.h"
#include "worker/descriptor_passing.h"
#include "worker/file_descriptor.h"

namespace kopt::worker {
namespace fs = std::filesystem;
namespace {

constexpr std::chrono::seconds request_limit{5};  // for a client to send its request once connected

// One thread for every command the worker runs, for the worker's whole life: a program a command
// leaves waiting (a process started ahead, say) is tied to the thread that started it.
class command_thread {
 public:
  command_thread() : m_thread([this] { loop(); }) {}
  ~command_thread() {
    {
      std::lock_guard lock(m_mutex);
      m_closing = true;
    }
    m_wake.notify_all();
    m_thread.join();
  }

  // Starts `job` with `cancelled` as its thread's cancellation flag.
  void start(std::function<int()> job, const std::atomic<bool>* cancelled) {
    std::lock_guard lock(m_mutex);
    m_job = std::move(job);
    m_cancelled = cancelled;
    m_done = false;
    m_wake.notify_all();
  }

  // The job's exit status once it has finished within `wait`; nothing yet otherwise.
  std::optional<int> finished(std::chrono::milliseconds wait) {
    std::unique_lock lock(m_mutex);
    if (!m_wake.wait_for(lock, wait, [this] { return m_done; })) return std::nullopt;
    return m_status;
  }

 private:
  void loop() {
    std::unique_lock lock(m_mutex);
    while (true) {
      m_wake.wait(lock, [this] { return m_closing || m_job; });
      if (m_closing) return;
      std::function<int()> job = std::move(m_job);
      m_job = nullptr;
      set_thread_cancellation(m_cancelled);
      lock.unlock();
      const int status = job();
      lock.lock();
      set_thread_cancellation(nullptr);
      m_status = status;
      m_done = true;
      m_wake.notify_all();
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::function<int()> m_job;
  const std::atomic<bool>* m_cancelled = nullptr;
  bool m_done = false;
  bool m_closing = false;
  int m_status = 0;
  std::thread m_thread;
};

int listen_on(const fs::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw error(fmt::format("cannot make the worker's socket: {}", std::strerror(errno)));
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 || ::listen(fd, 16) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    throw error(fmt::format("cannot listen on {}: {}", path.string(), reason),
                "another worker of this kopt may be serving there: `kopt worker status`");
  }
  ::chmod(path.c_str(), 0600);
  return fd;
}

// Whether the client closed its end (it ended, or gave up on the command).
bool client_gone(int connection) {
  pollfd p{connection, POLLIN | POLLRDHUP, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  if ((p.revents & (POLLHUP | POLLRDHUP | POLLERR)) != 0) return true;
  char byte = 0;
  return ::recv(connection, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

// The client's folder and standard streams for the length of one command.
class borrowed_process_state {
 public:
  borrowed_process_state(const std::vector<int>& fds, const std::string& cwd)
      : m_cwd(::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    std::fflush(nullptr);
    for (int i = 0; i < 3; ++i) {
      m_saved[i] = ::fcntl(i, F_DUPFD_CLOEXEC, 10);
      ::dup2(fds[static_cast<std::size_t>(i)], i);
    }
    if (::chdir(cwd.c_str()) != 0) {
      restore();
      throw error(fmt::format("the worker cannot enter the client's folder {}: {}", cwd, std::strerror(errno)));
    }
  }
  ~borrowed_process_state() { restore(); }
  borrowed_process_state(const borrowed_process_state&) = delete;
  borrowed_process_state& operator=(const borrowed_process_state&) = delete;

 private:
  void restore() {
    if (m_restored) return;
    m_restored = true;
    std::fflush(nullptr);
    for (int i = 0; i < 3; ++i) {
      ::dup2(m_saved[i], i);
      ::close(m_saved[i]);
    }
    if (m_cwd >= 0) {
      if (::fchdir(m_cwd) != 0) {
        // The folder the worker started in is gone: any folder of its own will do.
        if (::chdir("/") != 0) std::perror("kopt worker");
      }
      ::close(m_cwd);
    }
  }

  int m_cwd;
  int m_saved[3] = {-1, -1, -1};
  bool m_restored = false;
};

// A request read from a client, kept with its connection until it is answered.
struct request {
  file_descriptor connection;
  json message;
  std::vector<int> fds;

  request(int fd, received_message received)
      : connection(fd), message(std::move(received.message)), fds(std::move(received.fds)) {}
  request(request&&) = default;
  request& operator=(request&&) = default;
  ~request() {
    for (int fd : fds) ::close(fd);
  }
};

class worker_server {
 public:
  worker_server(const server_settings& settings, const command_runner& run)
      : m_settings(settings), m_run(run), m_listener(listen_on(settings.socket)) {}

  void serve() {
    while (!m_stop) {
      if (!m_waiting.empty()) {
        request next = std::move(m_waiting.front());
        m_waiting.pop_front();
        run_command(next);
        continue;
      }
      pollfd p{m_listener.get(), POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(std::chrono::milliseconds(m_settings.idle).count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) break;  // idle for too long
      take_request();
    }
    // Stopped with commands waiting: their clients run them themselves.
    for (request& r : m_waiting) {
      try {
        reply(r, json{{"refused", "the worker was stopped"}});
      } catch (const error&) {
      }
    }
  }

 private:
  // Accepts one connection and answers it now (status, stop, a refusal) or queues its command.
  void take_request() {
    const int fd = ::accept4(m_listener.get(), nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;
    std::optional<received_message> received;
    try {
      received = receive_message(fd, request_limit);
    } catch (const error& e) {
      std::fprintf(stderr, "kopt worker: a bad request: %s\n", e.headline().c_str());
    }
    if (!received) {
      ::close(fd);
      return;
    }
    request r(fd, std::move(*received));
    const std::string what = r.message.value("do", "");
    try {
      if (r.message.value("identity", "") != m_settings.self.digest) {
        // Another kopt, or this one in another environment: it must not run this worker's way.
        reply(r, json{{"refused", "the client is another kopt or runs in another environment"}});
      } else if (what == "status") {
        reply(r, status());
      } else if (what == "stop") {
        m_stop = true;
        reply(r, json{{"stopping", true}});
      } else if (what == "run") {
        m_waiting.push_back(std::move(r));
      } else {
        reply(r, json{{"refused", fmt::format("unknown request \"{}\"", what)}});
      }
    } catch (const error& e) {
      std::fprintf(stderr, "kopt worker: %s\n", e.headline().c_str());
    }
  }

  static void reply(const request& r, const json& message) { send_message(r.connection.get(), message); }

  json status() const {
    return json{{"pid", ::getpid()},
                {"started_at", m_started_at},
                {"commands_served", m_served},
                {"running_command", m_running.empty() ? json(nullptr) : json(m_running)},
                {"commands_waiting", m_waiting.size()},
                {"socket", m_settings.socket.string()},
                {"idle_limit_s", m_settings.idle.count()},
                {"identity", m_settings.self.digest},  // not the text: the environment may hold secrets
                {"kept_warm", m_settings.kept_warm ? m_settings.kept_warm() : json::array()}};
  }

  void run_command(request& r) {
    if (r.fds.size() != 3 || !r.message.contains("words") || !r.message["words"].is_array() ||
        !r.message.contains("cwd")) {
      reply(r, json{{"refused", "a run request needs the words, the folder and three descriptors"}});
      return;
    }
    try {
      // From here on the command counts as run: a client that hears nothing more knows that
      // the worker ended during it, not before it (when it may safely go elsewhere).
      reply(r, json{{"started", true}});
    } catch (const error&) {
      return;  // the client went away while its command waited: nothing to run for it
    }
    ++m_served;
    m_running = r.message["words"].get<std::vector<std::string>>();
    std::atomic<bool> cancelled{false};
    int exit_status = 2;
    try {
      borrowed_process_state borrowed(r.fds, r.message["cwd"].get<std::string>());
      const std::vector<std::string> words = m_running;
      m_thread.start(
          [&]() -> int {
            try {
              return m_run(words);
            } catch (const std::exception& e) {
              std::fprintf(stderr, "kopt: error: the warm worker failed to run the command: %s\n", e.what());
              return 2;
            }
          },
          &cancelled);
      while (true) {
        if (const std::optional<int> done = m_thread.finished(std::chrono::milliseconds(100))) {
          exit_status = *done;
          break;
        }
        if (!cancelled && client_gone(r.connection.get())) cancelled = true;  // its programs are killed
        // Meanwhile: a status is answered, and a command waits its turn.
        pollfd p{m_listener.get(), POLLIN, 0};
        if (::poll(&p, 1, 0) > 0) take_request();
      }
    } catch (const error& e) {
      // The client's folder is gone, say: it hears why on its own standard error.
      const std::string line = fmt::format("kopt: error: {}\n", e.headline());
      if (::write(r.fds[2], line.data(), line.size()) < 0) {
        // Nobody reads the client's error stream: the status says it all.
      }
    }
    m_running.clear();
    try {
      reply(r, json{{"exit_code", exit_status}});
    } catch (const error&) {
      // The client went away: nobody is waiting for the status.
    }
    run_after_the_answer();  // before the next command (core/after_the_answer.h)
  }

  const server_settings& m_settings;
  const command_runner& m_run;
  file_descriptor m_listener;
  std::string m_started_at = utc_timestamp();
  int m_served = 0;
  bool m_stop = false;
  std::vector<std::string> m_running;
  std::deque<request> m_waiting;
  command_thread m_thread;
};

}  // namespace

void serve(const server_settings& settings, const command_runner& run) {
  // A client that goes away leaves a closed pipe behind: writing to it must fail, not end the
  // worker. (Programs it starts get the default back: core/subprocess.)
  std::signal(SIGPIPE, SIG_IGN);
  worker_server server(settings, run);
  struct remove_socket {
    const fs::path& path;
    ~remove_socket() {
      std::error_code ec;
      fs::remove(path, ec);
    }
  } removed{settings.socket};
  server.serve();
}

}  // namespace kopt::worker
