#include "loop/work_file.h"

#include <fmt/format.h>

#include "core/files.h"

namespace kopt::loop {

namespace fs = std::filesystem;

fs::path work_file_beside(const fs::path& kernel, std::string_view role) {
  return kernel.parent_path() /
         fmt::format(".{}.kopt-{}{}", kernel.stem().string(), role, kernel.extension().string());
}

work_file::work_file(fs::path path, const std::string& text) : m_path(std::move(path)) {
  write_file_atomic(m_path, text);
}

work_file::~work_file() {
  std::error_code ec;
  fs::remove(m_path, ec);
}

}  // namespace kopt::loop
