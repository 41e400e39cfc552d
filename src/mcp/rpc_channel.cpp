#include "mcp/rpc_channel.h"

#include <unistd.h>

#include <cerrno>

namespace kopt::mcp {
namespace {

constexpr std::size_t line_limit = std::size_t{64} << 20;  // [bytes]

}  // namespace

std::optional<std::string> rpc_channel::read_line() {
  char chunk[65536];
  while (true) {
    if (const std::size_t end = m_buffer.find('\n'); end != std::string::npos) {
      std::string line = m_buffer.substr(0, end);
      m_buffer.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (m_buffer.size() > line_limit) {
      std::string line = m_buffer.substr(0, line_limit);
      m_buffer.erase(0, line_limit);
      return line;
    }
    const ssize_t n = ::read(m_in, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (m_buffer.empty()) return std::nullopt;
      std::string line;
      line.swap(m_buffer);
      return line;
    }
    m_buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

void rpc_channel::send(const json& message) {
  const std::string line = json_text(message, -1) + "\n";
  const std::lock_guard<std::mutex> lock(m_write);
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(m_out, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the client is gone
    written += static_cast<std::size_t>(n);
  }
}

json rpc_channel::response(const json& id, const json& result) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}};
}

json rpc_channel::error_response(const json& id, int code, const std::string& message) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", json{{"code", code}, {"message", message}}}};
}

json rpc_channel::notification(const std::string& method, const json& params) {
  return json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}};
}

}  // namespace kopt::mcp
