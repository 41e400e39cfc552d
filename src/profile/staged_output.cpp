#include "profile/staged_output.h"

#include <unistd.h>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::profile {
namespace fs = std::filesystem;

staged_output::staged_output(fs::path folder) : m_out_dir(std::move(folder)) {
  std::error_code ec;
  fs::create_directories(m_out_dir, ec);
  if (!fs::is_directory(m_out_dir, ec)) {
    throw error(fmt::format("cannot create the output folder {}: choose another with --out", m_out_dir.string()));
  }
  // Inside the output folder, so that publishing is a rename on the same file system.
  m_staging = m_out_dir / fmt::format(".kopt-profile-{}.partial", ::getpid());
  fs::remove_all(m_staging, ec);
  if (!fs::create_directory(m_staging, ec)) {
    throw error(fmt::format("cannot write into {}: {} (choose another folder with --out)", m_out_dir.string(),
                            ec ? ec.message() : "unknown error"));
  }
}

staged_output::~staged_output() {
  std::error_code ec;
  fs::remove_all(m_staging, ec);
}

std::vector<fs::path> staged_output::publish(const std::vector<std::string>& names) {
  std::vector<fs::path> published;
  for (const std::string& name : names) {
    const fs::path from = staged(name);
    const fs::path to = m_out_dir / name;
    std::error_code ec;
    if (!fs::exists(from, ec)) {
      fs::remove(to, ec);
      continue;
    }
    fs::rename(from, to, ec);
    if (ec) throw error(fmt::format("cannot write {}: {}", to.string(), ec.message()));
    published.push_back(to);
  }
  return published;
}

}  // namespace kopt::profile
