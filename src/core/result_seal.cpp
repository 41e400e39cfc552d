#include "core/result_seal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/random_bytes.h"

namespace kopt {
namespace {

constexpr std::size_t key_bytes = 32;
constexpr std::string_view seal_prefix = "\nkopt-seal ";

}  // namespace

result_key::result_key() {
  m_key = random_bytes(key_bytes, "a key for the measuring process's result");
  int fds[2] = {-1, -1};
  if (::pipe2(fds, O_CLOEXEC) != 0) throw error(fmt::format("pipe: {}", std::strerror(errno)));
  // 32 bytes fit in any pipe's buffer: the write never blocks, and the child reads at leisure.
  const bool written = ::write(fds[1], m_key.data(), m_key.size()) == static_cast<ssize_t>(m_key.size());
  ::close(fds[1]);
  if (!written) {
    ::close(fds[0]);
    throw error("cannot hand the measuring process its result key");
  }
  m_read_fd = fds[0];
}

result_key::~result_key() {
  if (m_read_fd >= 0) ::close(m_read_fd);
}

std::string sealed(std::string_view key, std::string_view text) {
  return fmt::format("{}{}{}\n", text, seal_prefix, hmac_sha256_hex(key, text));
}

std::optional<std::string> unsealed(std::string_view key, std::string_view file_content) {
  const std::size_t at = file_content.rfind(seal_prefix);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view text = file_content.substr(0, at);
  std::string_view seal = file_content.substr(at + seal_prefix.size());
  if (!seal.empty() && seal.back() == '\n') seal.remove_suffix(1);
  if (seal != hmac_sha256_hex(key, text)) return std::nullopt;
  return std::string(text);
}

std::optional<std::string> take_result_key() {
  const char* named = std::getenv(result_key_fd_variable);
  if (named == nullptr) return std::nullopt;
  const int fd = std::atoi(named);
  ::unsetenv(result_key_fd_variable);
  std::string key(key_bytes, '\0');
  std::size_t got = 0;
  while (got < key_bytes) {
    const ssize_t n = ::read(fd, key.data() + got, key_bytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (got != key_bytes) return std::nullopt;
  return key;
}

}  // namespace kopt
