#include "core/files.h"

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
    if (ec && ec != std::errc::no_such_file_or_directory) {
      throw error(fmt::format("cannot read {} {}: {} (check the path)", what, path.string(), ec.message()));
    }
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
