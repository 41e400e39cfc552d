#include "core/private_folder.h"

#include <stdlib.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt {
namespace fs = std::filesystem;

private_folder::private_folder(const std::string& prefix, const std::string& purpose) {
  std::error_code ec;
  const fs::path shm = "/dev/shm";
  // Tried, not only asked: under a write sandbox (a kopt that an agent under --agent-sandbox
  // runs) access() still says /dev/shm is writable while making a folder there is refused.
  if (fs::is_directory(shm, ec) && ::access(shm.c_str(), W_OK) == 0) {
    std::string pattern = (shm / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) != nullptr) {
      m_path = pattern;
      return;
    }
  }
  const fs::path base = fs::temp_directory_path();
  std::string pattern = (base / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw error(fmt::format("cannot make a private folder in {} for {}", base.string(), purpose));
  }
  m_path = pattern;
}

private_folder::~private_folder() { remove_now(); }

void private_folder::remove_now() {
  std::error_code ec;
  fs::remove_all(m_path, ec);
}

}  // namespace kopt
