#include "core/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt {

file_lock::file_lock(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (m_fd < 0) throw error(fmt::format("cannot open the lock file {}: {}", path.string(), std::strerror(errno)));
}

std::unique_ptr<file_lock> file_lock::open_existing(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  return std::unique_ptr<file_lock>(new file_lock(fd));
}

file_lock::~file_lock() {
  if (m_fd >= 0) ::close(m_fd);  // closing releases the lock
}

bool file_lock::try_lock() {
  if (!m_locked) m_locked = ::flock(m_fd, LOCK_EX | LOCK_NB) == 0;
  return m_locked;
}

bool file_lock::try_lock_shared() {
  if (!m_locked) m_locked = ::flock(m_fd, LOCK_SH | LOCK_NB) == 0;
  return m_locked;
}

void file_lock::lock() {
  while (!m_locked) {
    if (::flock(m_fd, LOCK_EX) == 0) {
      m_locked = true;
    } else if (errno != EINTR) {
      throw error(fmt::format("cannot lock: {}", std::strerror(errno)));
    }
  }
}

}  // namespace kopt
