#pragma once
// An open file descriptor owned by one object: closed when it dies, moved rather than copied.

#include <unistd.h>

#include <utility>

namespace kopt::worker {

class file_descriptor {
 public:
  explicit file_descriptor(int fd = -1) : m_fd(fd) {}
  ~file_descriptor() {
    if (m_fd >= 0) ::close(m_fd);
  }
  file_descriptor(file_descriptor&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  file_descriptor& operator=(file_descriptor&& other) noexcept {
    std::swap(m_fd, other.m_fd);
    return *this;
  }
  file_descriptor(const file_descriptor&) = delete;
  file_descriptor& operator=(const file_descriptor&) = delete;

  int get() const { return m_fd; }

 private:
  int m_fd;
};

}  // namespace kopt::worker
