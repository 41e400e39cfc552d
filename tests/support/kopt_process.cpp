#include "support/kopt_process.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

namespace kopt::testing {
namespace fs = std::filesystem;

namespace {
fs::path env_path_or(const char* name, const char* built_default) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? fs::path(value) : fs::path(built_default);
}
}  // namespace

fs::path kopt_binary() { return env_path_or("KOPT_BIN", KOPT_BUILT_BIN); }
fs::path source_dir() { return env_path_or("KOPT_SOURCE_DIR", KOPT_BUILT_SOURCE_DIR); }

process_result run_kopt(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
                        const fs::path& working_dir) {
  static const scratch_dir private_cache;
  process_request request;
  request.argv = {kopt_binary().string()};
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.extra_env = env;
  request.extra_env.emplace("KOPT_CACHE_DIR", private_cache.path().string());
  if (!working_dir.empty()) request.working_dir = working_dir;
  request.timeout = std::chrono::minutes(10);
  return run_process(request);
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

scratch_dir::scratch_dir() {
  std::string pattern = (fs::temp_directory_path() / "kopt-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed";
  m_path = pattern;
}

scratch_dir::~scratch_dir() {
  std::error_code ec;
  fs::remove_all(m_path, ec);
}

fs::path scratch_dir::write(const std::string& name, const std::string& content) const {
  const fs::path file = m_path / name;
  fs::create_directories(file.parent_path());
  std::ofstream(file) << content;
  return file;
}

bound_socket::bound_socket(const fs::path& path) : m_fd(::socket(AF_UNIX, SOCK_STREAM, 0)) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
  if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ADD_FAILURE() << "cannot bind a socket at " << path;
  }
}

bound_socket::~bound_socket() {
  if (m_fd >= 0) ::close(m_fd);
}

}  // namespace kopt::testing
