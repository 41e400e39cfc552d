#include "core/gated_process.h"

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

process_result gated_process::open(const std::string& line, std::chrono::milliseconds timeout) {
  if (!m_start.started) return m_start;
  const std::string text = line + "\n";
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(m_gate, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // it ended already: waiting says how
    sent += static_cast<std::size_t>(n);
  }
  ::close(m_gate);
  m_gate = -1;
  process_result result = m_start;
  m_request.timeout = timeout;
  wait_for_process(m_process, m_request, std::chrono::steady_clock::now(), result);
  return result;
}

}  // namespace kopt
