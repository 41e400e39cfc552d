// write_file_atomic (core/files.h): what an output path is decides how it is written. A regular
// file is replaced whole (a temp file beside it, then a rename), keeping its mode and owner; a
// link is followed and its target written; a FIFO or a character device is written through, as
// a shell's redirection would (replacing /dev/full, or a FIFO a reader waits on, with a file
// helps no one); `-` and /dev/stdout are kopt's standard output. Anything else is refused.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"

namespace kopt {
namespace fs = std::filesystem;
namespace {

// Every byte of `content`, or false with errno set.
bool write_all(int fd, std::string_view content) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  return true;
}

[[noreturn]] void cannot_write(const fs::path& path, int error_number) {
  throw error(fmt::format("cannot write {}: {}", path.string(), std::strerror(error_number)));
}

// Into what is already open (standard output) or opened without creating or truncating (a FIFO
// blocks until a reader comes, as it would for a shell).
void write_through(const fs::path& shown, int fd, std::string_view content) {
  if (!write_all(fd, content)) cannot_write(shown, errno);
}

void write_through(const fs::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) cannot_write(path, errno);
  const bool ok = write_all(fd, content);
  const int saved = errno;
  ::close(fd);
  if (!ok) cannot_write(path, saved);
}

// Where a link leads once every link on the way is followed, whether the end exists or not (a
// link to a file not written yet). Throws for a loop.
fs::path link_target(const fs::path& link) {
  fs::path at = link;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(at, ec)) return at;
    const fs::path next = fs::read_symlink(at, ec);
    if (ec) cannot_write(link, ec.value());
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  cannot_write(link, ELOOP);
}

// A new file, or one replacing `existing` (whose mode and owner it takes), appearing whole.
void replace_file(const fs::path& path, std::string_view content, const struct stat* existing) {
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw error(fmt::format("cannot create directory {}: {}", parent.string(), ec.message()));
  std::string temp = (parent / fmt::format(".{}.XXXXXX", path.filename().string())).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw error(fmt::format("cannot write into {}: {}", parent.string(), std::strerror(errno)));
  const auto fail = [&](int error_number) {
    ::close(fd);
    ::unlink(temp.c_str());
    cannot_write(path, error_number);
  };
  if (!write_all(fd, content)) fail(errno);
  ::fsync(fd);
  if (existing != nullptr) {
    // Its mode always; its owner where kopt may give it (run as root), else it is kopt's user's.
    if (::fchown(fd, existing->st_uid, existing->st_gid) != 0) {
    }
    ::fchmod(fd, existing->st_mode & 07777);
  } else {
    ::fchmod(fd, 0644);
  }
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    cannot_write(path, saved);
  }
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  return "not a file";
}

}  // namespace

void write_file_atomic(const fs::path& path, std::string_view content) {
  if (path == "-" || path == "/dev/stdout") {
    std::fflush(stdout);  // what kopt printed before comes first
    write_through(path, STDOUT_FILENO, content);
    return;
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) cannot_write(path, errno);
    replace_file(path, content, nullptr);
    return;
  }
  if (S_ISLNK(st.st_mode)) {
    if (::stat(path.c_str(), &st) != 0) {
      if (errno != ENOENT) cannot_write(path, errno);
      replace_file(link_target(path), content, nullptr);  // a link to a file not written yet
      return;
    }
    if (S_ISREG(st.st_mode)) {
      std::error_code ec;
      const fs::path target = fs::canonical(path, ec);
      if (ec) cannot_write(path, ec.value());
      replace_file(target, content, &st);
      return;
    }
  } else if (S_ISREG(st.st_mode)) {
    replace_file(path, content, &st);
    return;
  }
  if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
    write_through(path, content);
    return;
  }
  throw error(fmt::format("cannot write {}: it is {}; give the path of a file (a FIFO, a character device or - "
                          "for standard output are written through)",
                          path.string(), kind_of(st.st_mode)));
}

}  // namespace kopt
