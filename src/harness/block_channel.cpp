#include "harness/block_channel.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

#include <fmt/format.h>

#include "core/error.h"
#include "core/json_limits.h"
#include "core/result_seal.h"

namespace kopt::harness {

std::optional<int> block_channel::next_request() {
  std::string line;
  char c = 0;
  while (true) {
    const ssize_t n = ::read(m_fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    if (c == '\n') break;
    if (line.size() > 32) throw error("a block request longer than a count came from the parent");
    line.push_back(c);
  }
  int calls = 0;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), calls);
  if (ec != std::errc() || end != line.data() + line.size() || calls <= 0) {
    throw error(fmt::format("block request '{}' is not a positive call count", line));
  }
  ++m_requests;
  return calls;
}

void block_channel::reply(block_reply block) {
  block.block = m_requests;
  const std::string text = json_text(to_document(block), -1);  // one line: no indent, no newline
  const std::string message = m_key ? sealed(*m_key, text) : text + "\n";
  std::size_t sent = 0;
  while (sent < message.size()) {
    const ssize_t n = ::send(m_fd, message.data() + sent, message.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw error("the parent stopped listening for timing blocks");
    sent += static_cast<std::size_t>(n);
  }
}

std::optional<block_reply> read_block_reply(const std::string& reply, const std::string& key, int number) {
  std::optional<std::string> text = key.empty() ? std::optional<std::string>(reply) : unsealed(key, reply);
  if (!text) return std::nullopt;
  try {
    block_reply document = from_document<block_reply>(parse_json_checked(*text));
    if (document.block != number) return std::nullopt;
    return document;
  } catch (const document_error&) {
    return std::nullopt;
  }
}

}  // namespace kopt::harness
