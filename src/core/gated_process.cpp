#include "core/gated_process.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "core/orphans.h"

namespace kopt {

gated_process::gated_process(process_request request, std::chrono::milliseconds grace)
    : m_request(std::move(request)), m_grace(grace) {
  m_gate = spawn_on_socket(m_request, m_process, m_start);
}

gated_process::~gated_process() {
  if (m_gate >= 0) ::close(m_gate);  // end-of-file: the program leaves
  if (m_process.pid <= 0) return;
  const auto deadline = std::chrono::steady_clock::now() + m_grace;
  while (std::chrono::steady_clock::now() < deadline) {
    const pid_t ended = ::waitpid(m_process.pid, nullptr, WNOHANG);
    if (ended == m_process.pid || (ended < 0 && errno != EINTR)) {
      release_own_child(m_process.pid);
      end_process_group(m_process.pid);  // what it left running in its group goes with it
      m_process.pid = -1;
      break;
    }
    ::usleep(5000);
  }
  // m_process, if not reaped yet, kills and reaps the program's group.
}

bool gated_process::waiting() const {
  if (m_process.pid <= 0) return false;
  siginfo_t info{};
  // WNOWAIT: only a look; the program is reaped where its end is read.
  if (::waitid(P_PID, static_cast<id_t>(m_process.pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return false;
  return info.si_pid == 0;
}

bool send_line(int socket, const std::string& line) {
  const std::string text = line + "\n";
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(socket, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

bool gated_process::say(const std::string& line) {
  return m_gate >= 0 && send_line(m_gate, line);
}

void gated_process::read_said_back() {
  char chunk[256];
  while (m_gate >= 0) {
    const ssize_t n = ::recv(m_gate, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nothing more now, or the program ended
    m_said_back.append(chunk, static_cast<std::size_t>(n));
  }
}

std::optional<std::string> gated_process::next_line_said() {
  const std::size_t end = m_said_back.find('\n');
  if (end == std::string::npos) return std::nullopt;
  std::string line = m_said_back.substr(0, end);
  m_said_back.erase(0, end + 1);
  return line;
}

std::vector<std::string> gated_process::heard() {
  read_said_back();
  std::vector<std::string> lines;
  while (std::optional<std::string> line = next_line_said()) lines.push_back(std::move(*line));
  return lines;
}

std::optional<std::string> gated_process::hear(std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (m_gate >= 0) {
    read_said_back();
    if (std::optional<std::string> line = next_line_said()) return line;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd ready{m_gate, POLLIN, 0};
    const int polled = ::poll(&ready, 1, static_cast<int>(left.count()));
    if (polled < 0 && errno != EINTR) return std::nullopt;
    // Readable with nothing to read: the program closed its end (it ended).
    if (polled > 0 && (ready.revents & POLLIN) != 0) {
      char probe = 0;
      if (::recv(m_gate, &probe, 1, MSG_DONTWAIT | MSG_PEEK) == 0) return std::nullopt;
    } else if (polled > 0) {
      return std::nullopt;  // hung up or failed
    }
  }
  return std::nullopt;
}

process_result gated_process::open(const std::string& line, std::chrono::milliseconds timeout) {
  if (!m_start.started) return m_start;
  send_line(m_gate, line);  // when it ended already, waiting says how
  ::close(m_gate);
  m_gate = -1;
  process_result result = m_start;
  m_request.timeout = timeout;
  wait_for_process(m_process, m_request, std::chrono::steady_clock::now(), result);
  return result;
}

}  // namespace kopt
