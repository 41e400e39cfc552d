#include "core/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt {

mapped_file::mapped_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw error(fmt::format("cannot open {}: {}", path.string(), std::strerror(errno)));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw error(fmt::format("{} is not a regular file", path.string()));
  }
  m_size = static_cast<std::size_t>(info.st_size);
  if (m_size > 0) {
    void* data = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int mmap_errno = errno;
    if (data == MAP_FAILED) {
      ::close(fd);
      throw error(fmt::format("cannot map {} into memory: {}", path.string(), std::strerror(mmap_errno)));
    }
    m_data = data;
  }
  ::close(fd);  // the mapping keeps the file's pages
}

mapped_file::~mapped_file() {
  if (m_data != nullptr) ::munmap(m_data, m_size);
}

mapped_file::mapped_file(mapped_file&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)) {}

mapped_file& mapped_file::operator=(mapped_file&& other) noexcept {
  if (this != &other) {
    if (m_data != nullptr) ::munmap(m_data, m_size);
    m_data = std::exchange(other.m_data, nullptr);
    m_size = std::exchange(other.m_size, 0);
  }
  return *this;
}

}  // namespace kopt
