#include "core/install_layout.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kopt {
namespace fs = std::filesystem;

fs::path kopt_executable() {
  std::error_code ec;
  const fs::path executable = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw error(fmt::format("cannot tell where kopt is installed (/proc/self/exe: {})", ec.message()));
  return executable;
}

fs::path install_prefix() { return kopt_executable().parent_path().parent_path(); }

fs::path companion_file(std::string_view relative) {
  const fs::path path = install_prefix() / relative;
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    throw error(fmt::format("kopt's {} is missing (expected at {}): rebuild kopt, or carry the whole build "
                            "folder (bin, lib, share) when moving it",
                            relative, path.string()));
  }
  return path;
}

}  // namespace kopt
