#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt {
namespace fs = std::filesystem;

std::string read_text_file(const fs::path& path, std::string_view what) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    throw error(fmt::format("{} not found: {} (check the path)", what, path.string()));
  }
  if (fs::is_directory(path, ec)) {
    throw error(fmt::format("{} is a directory, not a file: {}", what, path.string()));
  }
  // A FIFO would block for ever, a device (/dev/zero) would never end: regular files only.
  if (!fs::is_regular_file(path, ec)) {
    throw error(fmt::format("{} is not a regular file (a FIFO, device or socket): {}; give kopt a file", what,
                            path.string()));
  }
  if (const auto size = fs::file_size(path, ec); !ec && size > max_text_file_bytes) {
    throw error(fmt::format("{} is too large to read: {} is {} bytes, over kopt's limit of {} bytes", what,
                            path.string(), size, max_text_file_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw error(fmt::format("cannot read {} {}: {}", what, path.string(), std::strerror(errno)));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_file_atomic(const fs::path& path, std::string_view content) {
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) {
    throw error(fmt::format("cannot create directory {}: {}", parent.string(), ec.message()));
  }
  std::string temp_template = (parent / fmt::format(".{}.XXXXXX", path.filename().string())).string();
  const int fd = ::mkstemp(temp_template.data());
  if (fd < 0) {
    throw error(fmt::format("cannot write into {}: {}", parent.string(), std::strerror(errno)));
  }
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(temp_template.c_str());
      throw error(fmt::format("cannot write {}: {}", path.string(), reason));
    }
    written += static_cast<size_t>(n);
  }
  ::fsync(fd);
  ::fchmod(fd, 0644);
  ::close(fd);
  if (::rename(temp_template.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp_template.c_str());
    throw error(fmt::format("cannot write {}: {}", path.string(), reason));
  }
}

fs::path cache_root() {
  if (const char* dir = std::getenv("KOPT_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    return fs::absolute(dir);
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return fs::path(xdg) / "kopt";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return fs::path(home) / ".cache" / "kopt";
  }
  return fs::temp_directory_path() / "kopt-cache";
}

}  // namespace kopt
