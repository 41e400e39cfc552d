#include "worker/worker_address.h"

#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/files.h"

extern char** environ;

namespace kopt::worker {
namespace fs = std::filesystem;
namespace {

bool ignored_variable(std::string_view entry) {
  const std::string_view name = entry.substr(0, entry.find('='));
  return name == "PWD" || name == "OLDPWD" || name == "SHLVL" || name == "_" || name == "KOPT_WARM";
}

std::string executable_text() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  struct stat info {};
  if (ec || ::stat(exe.c_str(), &info) != 0) return "executable unknown";
  return fmt::format("executable {} ({} bytes, modified {}.{:09})", exe.string(), info.st_size, info.st_mtim.tv_sec,
                     info.st_mtim.tv_nsec);
}

}  // namespace

identity current_identity(std::string_view version) {
  std::vector<std::string> environment;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (!ignored_variable(*e)) environment.emplace_back(*e);
  }
  std::sort(environment.begin(), environment.end());
  std::string text = fmt::format("kopt {}\n{}\nuser {}\n", version, executable_text(), ::getuid());
  for (const std::string& entry : environment) text += entry + "\n";
  return identity{text, sha256_hex(text)};
}

fs::path worker_folder() {
  const fs::path folder = cache_root() / "worker";
  fs::create_directories(folder);
  // Only this user may reach a worker: it runs commands as them.
  fs::permissions(folder, fs::perms::owner_all, fs::perm_options::replace);
  return folder;
}

fs::path socket_path(const identity& id) {
  const fs::path path = worker_folder() / (id.digest.substr(0, 16) + ".sock");
  if (path.string().size() >= sizeof(sockaddr_un{}.sun_path)) {
    throw error(fmt::format("the warm worker's socket path {} is too long for a Unix socket", path.string()),
                "set KOPT_CACHE_DIR to a shorter folder");
  }
  return path;
}

fs::path log_path(const identity& id) { return worker_folder() / (id.digest.substr(0, 16) + ".log"); }

}  // namespace kopt::worker
