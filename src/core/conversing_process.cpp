#include "core/conversing_process.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <utility>

namespace kopt {
namespace {

// Appends what `fd` has to `sink`; false at its end.
bool drain(int fd, std::string& sink) {
  std::array<char, 65536> buffer{};
  const ssize_t n = ::read(fd, buffer.data(), buffer.size());
  if (n > 0) {
    sink.append(buffer.data(), static_cast<std::size_t>(n));
    return true;
  }
  return n < 0 && (errno == EINTR || errno == EAGAIN);
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

conversing_process::conversing_process(process_request request) : m_request(std::move(request)) {
  // One socket for both directions: requests out, replies back.
  m_socket = spawn_on_socket(m_request, m_process, m_start);
}

conversing_process::~conversing_process() {
  if (m_socket >= 0) ::close(m_socket);
  // m_process, if not reaped, kills and reaps the program's group.
}

bool conversing_process::pump(std::chrono::steady_clock::time_point deadline) {
  while (true) {
    // An output pipe at its end is left for finish() (wait_for_process reads the end again).
    std::array<pollfd, 3> fds{pollfd{m_socket, POLLIN, 0}, pollfd{m_out_open ? m_process.out : -1, POLLIN, 0},
                              pollfd{m_err_open ? m_process.err : -1, POLLIN, 0}};
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    const int ready =
        ::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready <= 0) continue;  // EINTR, or a second of quiet: look at the time again
    if (fds[1].revents != 0) m_out_open = drain(m_process.out, m_out);
    if (fds[2].revents != 0) m_err_open = drain(m_process.err, m_err);
    if (fds[0].revents != 0) {
      if (!drain(m_socket, m_replies)) {
        ::close(m_socket);
        m_socket = -1;
        return false;
      }
      return true;
    }
  }
}

std::optional<std::string> conversing_process::ask(const std::string& line, int reply_lines,
                                                   std::chrono::milliseconds timeout) {
  if (!m_start.started || m_socket < 0) return std::nullopt;
  const std::string text = line + "\n";
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(m_socket, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;  // it ended: finish() says how
    sent += static_cast<std::size_t>(n);
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const auto wanted = static_cast<std::size_t>(reply_lines);
  while (count_lines(m_replies) < wanted) {
    if (!pump(deadline)) return std::nullopt;
  }
  // Hand out exactly the reply's lines; anything after them belongs to the next question.
  std::size_t end = 0;
  for (std::size_t i = 0; i < wanted; ++i) end = m_replies.find('\n', end) + 1;
  std::string reply = m_replies.substr(0, end);
  m_replies.erase(0, end);
  return reply;
}

process_result conversing_process::finish(std::chrono::milliseconds timeout) {
  if (!m_start.started) return m_start;
  if (m_socket >= 0) {
    ::shutdown(m_socket, SHUT_WR);  // end-of-file: the program leaves
  }
  process_result result = m_start;
  m_request.timeout = timeout;
  wait_for_process(m_process, m_request, std::chrono::steady_clock::now(), result);
  result.stdout_text = m_out + result.stdout_text;
  result.stderr_text = m_err + result.stderr_text;
  if (m_socket >= 0) {
    ::close(m_socket);
    m_socket = -1;
  }
  return result;
}

}  // namespace kopt
