#include "core/write_sandbox.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "core/text.h"

namespace kopt {
namespace fs = std::filesystem;
namespace {

// Rights Landlock added after the headers this builds with may know (ABI 3).
constexpr std::uint64_t access_truncate = 1ULL << 14;

// Every right that changes the file system; reading, executing and ioctls are not handled, so
// they stay allowed everywhere.
std::uint64_t write_rights(int abi) {
  std::uint64_t rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                         LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                         LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                         LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) rights |= access_truncate;
  return rights;
}

write_sandbox without(const std::string& why) { return write_sandbox{false, 0, "none: " + why}; }

}  // namespace

write_sandbox restrict_writes_to(const std::vector<fs::path>& writable) {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 1) return without(fmt::format("Landlock is not available here ({})", std::strerror(errno)));
  const std::uint64_t rights = write_rights(static_cast<int>(abi));
  landlock_ruleset_attr ruleset{};
  ruleset.handled_access_fs = rights;
  const int ruleset_fd = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &ruleset, sizeof ruleset, 0));
  if (ruleset_fd < 0) return without(fmt::format("Landlock refused a ruleset ({})", std::strerror(errno)));
  std::vector<std::string> allowed;
  for (const fs::path& folder : writable) {
    const int fd = ::open(folder.c_str(), O_PATH | O_CLOEXEC | O_DIRECTORY);
    if (fd < 0) continue;  // not there: nothing to allow
    landlock_path_beneath_attr beneath{};
    beneath.allowed_access = rights;
    beneath.parent_fd = fd;
    const long added = ::syscall(SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
    ::close(fd);
    if (added == 0) allowed.push_back(folder.string());
  }
  // Required for an unprivileged process; it also keeps set-user-ID programs from lifting it.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0) != 0) {
    const int failure = errno;
    ::close(ruleset_fd);
    return without(fmt::format("Landlock could not be applied ({})", std::strerror(failure)));
  }
  ::close(ruleset_fd);
  return write_sandbox{true, static_cast<int>(abi),
                       fmt::format("Landlock ABI {}: writes only under {}", abi, join(allowed, ", "))};
}

std::vector<fs::path> common_writable_folders() {
  std::error_code ec;
  fs::path temp = fs::temp_directory_path(ec);
  if (ec) temp = "/tmp";
  return {"/dev", "/proc", temp};
}

}  // namespace kopt
