#include "core/write_sandbox.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
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

// The rights of those that apply to a file that is not a folder: writing it in place.
std::uint64_t file_rights(int abi) { return LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? access_truncate : 0); }

write_sandbox without(const std::string& why) { return write_sandbox{false, 0, "unavailable: " + why}; }

// Adds the rule for `path` (a folder when `folder`, else a file of any other kind, a device
// node say); false when it is not there or not of that kind.
bool add_rule(int ruleset_fd, const fs::path& path, bool folder, int abi) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC | (folder ? O_DIRECTORY : 0));
  if (fd < 0) return false;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<bool>(S_ISDIR(st.st_mode)) != folder) {
    ::close(fd);
    return false;
  }
  landlock_path_beneath_attr beneath{};
  beneath.allowed_access = folder ? write_rights(abi) : file_rights(abi);
  beneath.parent_fd = fd;
  const long added = ::syscall(SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
  ::close(fd);
  return added == 0;
}

}  // namespace

write_sandbox restrict_writes_to(const write_allowance& allowed) {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 1) {
    const int failure = errno;
    if (failure == ENOSYS) return without("this Linux kernel has no Landlock (older than 5.13, or built without it)");
    if (failure == EOPNOTSUPP) return without("Landlock is disabled in this Linux kernel (not in its lsm= list)");
    return without(fmt::format("Landlock is not available here ({})", std::strerror(failure)));
  }
  landlock_ruleset_attr ruleset{};
  ruleset.handled_access_fs = write_rights(static_cast<int>(abi));
  const int ruleset_fd = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &ruleset, sizeof ruleset, 0));
  if (ruleset_fd < 0) return without(fmt::format("Landlock refused a ruleset ({})", std::strerror(errno)));
  std::vector<std::string> folders;
  std::vector<std::string> files;
  for (const fs::path& folder : allowed.folders) {
    if (add_rule(ruleset_fd, folder, true, static_cast<int>(abi))) folders.push_back(folder.string());
  }
  for (const fs::path& file : allowed.files) {
    if (add_rule(ruleset_fd, file, false, static_cast<int>(abi))) files.push_back(file.string());
  }
  // Required for an unprivileged process; it also keeps set-user-ID programs from lifting it.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0) != 0) {
    const int failure = errno;
    ::close(ruleset_fd);
    return without(fmt::format("Landlock could not be applied ({})", std::strerror(failure)));
  }
  ::close(ruleset_fd);
  std::string description = fmt::format("Landlock ABI {}: writes only under {}", abi, join(folders, ", "));
  if (!files.empty()) description += "; in place to " + join(files, ", ");
  return write_sandbox{true, static_cast<int>(abi), description};
}

std::optional<std::string> unsandboxed_warning(const std::optional<std::string>& description) {
  const std::string prefix = "unavailable: ";
  if (!description || description->rfind(prefix, 0) != 0) return std::nullopt;
  return fmt::format("kopt: warning: no write sandbox: {}; the code under test could write anywhere kopt can",
                     description->substr(prefix.size()));
}

bool sandbox_warning::note(const std::optional<std::string>& description) {
  if (m_warned) return false;
  const std::optional<std::string> line = unsandboxed_warning(description);
  if (!line || m_warned.exchange(true)) return false;
  std::fprintf(m_out, "%s\n", line->c_str());
  std::fflush(m_out);
  return true;
}

sandbox_warning& sandbox_warning::for_this_process() {
  static sandbox_warning warning;
  return warning;
}

}  // namespace kopt
