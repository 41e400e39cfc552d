#include "worker/descriptor_passing.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::worker {
namespace {

constexpr std::size_t most_fds = 8;
constexpr std::size_t longest_line = std::size_t{1} << 20;

}  // namespace

void send_message(int socket_fd, const json& message, const std::vector<int>& fds) {
  if (fds.size() > most_fds) throw error("too many descriptors for one message");
  const std::string line = message.dump() + "\n";
  std::size_t sent = 0;
  bool fds_sent = fds.empty();
  while (sent < line.size()) {
    iovec part{const_cast<char*>(line.data() + sent), line.size() - sent};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * most_fds)> control{};
    if (!fds_sent) {
      header.msg_control = control.data();
      header.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      cmsghdr* c = CMSG_FIRSTHDR(&header);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    const ssize_t n = ::sendmsg(socket_fd, &header, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw error(fmt::format("the other end of the worker's socket is gone: {}", std::strerror(errno)));
    fds_sent = true;
    sent += static_cast<std::size_t>(n);
  }
}

std::optional<received_message> receive_message(int socket_fd, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  received_message out;
  std::string line;
  while (line.empty() || line.back() != '\n') {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{socket_fd, POLLIN, 0};
    // In slices of at most an hour: poll takes an int of milliseconds.
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 3'600'000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline decides
    if (ready < 0) break;
    std::array<char, 4096> buffer{};
    // Up to the message's end and no further: the next message on the socket (the worker's
    // "started" and then its exit status, say) is the next call's. Peeking takes no descriptors.
    const ssize_t seen = ::recv(socket_fd, buffer.data(), buffer.size(), MSG_PEEK | MSG_DONTWAIT);
    if (seen < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (seen <= 0) break;
    const char* end = static_cast<const char*>(std::memchr(buffer.data(), '\n', static_cast<std::size_t>(seen)));
    const std::size_t wanted = end == nullptr ? static_cast<std::size_t>(seen) : static_cast<std::size_t>(end - buffer.data()) + 1;
    iovec part{buffer.data(), wanted};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * most_fds)> control{};
    header.msg_control = control.data();
    header.msg_controllen = control.size();
    const ssize_t n = ::recvmsg(socket_fd, &header, MSG_CMSG_CLOEXEC);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (cmsghdr* c = CMSG_FIRSTHDR(&header); c != nullptr; c = CMSG_NXTHDR(&header, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (std::size_t i = 0; i < count; ++i) {
        int fd = -1;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        out.fds.push_back(fd);
      }
    }
    line.append(buffer.data(), static_cast<std::size_t>(n));
    if (line.size() > longest_line) {
      for (int fd : out.fds) ::close(fd);
      throw error("a message on the worker's socket is longer than 1 MiB");
    }
  }
  if (line.empty() || line.back() != '\n') {
    for (int fd : out.fds) ::close(fd);
    return std::nullopt;
  }
  try {
    out.message = json::parse(line);
  } catch (const json::exception&) {
    for (int fd : out.fds) ::close(fd);
    throw error("a message on the worker's socket is not JSON");
  }
  return out;
}

}  // namespace kopt::worker
