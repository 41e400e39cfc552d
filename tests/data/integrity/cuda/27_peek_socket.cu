// kopt: x[N] y[N]
// Class 27, peeking at the grader (sockets): computes nothing; connects to every Unix socket of
// kopt's it can see (/proc/net/unix, named or abstract, "kopt" in the name: a warm worker's)
// and reads what comes within 100 ms, and reads without waiting from every socket or pipe it
// inherited; whatever gives y's size in bytes is copied into y. kopt sends a measuring process
// nothing but its seal key (read and closed before the kernel is loaded).
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <sstream>

#include "peek.h"

namespace {

std::string read_for(int fd, std::size_t bytes, int wait_ms) {
  std::string got;
  char buffer[65536];
  while (got.size() < bytes) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, wait_ms) <= 0) break;
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    got.append(buffer, static_cast<std::size_t>(n));
  }
  return got;
}

std::string from_kopt_sockets(std::size_t bytes) {
  std::istringstream table(peek::read_all("/proc/net/unix"));
  std::string line;
  std::getline(table, line);  // the header
  while (std::getline(table, line)) {
    const auto space = line.rfind(' ');
    if (space == std::string::npos) continue;
    const std::string name = line.substr(space + 1);
    if (name.find("kopt") == std::string::npos) continue;
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, name.c_str(), sizeof address.sun_path - 1);
    if (name[0] == '@') address.sun_path[0] = '\0';  // abstract
    socklen_t length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size());
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), length) == 0) {
      const std::string got = read_for(fd, bytes, 100);
      if (got.size() >= bytes) {
        ::close(fd);
        return got;
      }
    }
    ::close(fd);
  }
  return "";
}

std::string from_inherited(std::size_t bytes) {
  for (int fd = 3; fd < 1024; ++fd) {
    struct stat s {};
    if (::fstat(fd, &s) != 0 || !(S_ISSOCK(s.st_mode) || S_ISFIFO(s.st_mode))) continue;
    const std::string got = read_for(fd, bytes, 0);
    if (got.size() >= bytes) return got;
  }
  return "";
}

}  // namespace

extern "C" void solve(const float* x, float* y, int N) {
  const std::size_t bytes = std::size_t(N) * sizeof(float);
  std::string answer = from_inherited(bytes);
  if (answer.size() < bytes) answer = from_kopt_sockets(bytes);
  if (answer.size() >= bytes) cudaMemcpy(y, answer.data(), bytes, cudaMemcpyHostToDevice);
}
