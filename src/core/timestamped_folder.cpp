#include "core/timestamped_folder.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/utc_time.h"

namespace kopt {

namespace fs = std::filesystem;

fs::path create_timestamped_folder(const fs::path& parent, const std::string& prefix,
                                   const std::string& fix) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw error(fmt::format("cannot create {}: {}; {}", parent.string(), ec.message(), fix));
  const std::string name = prefix + "_" + utc_compact_timestamp();
  for (int attempt = 1; attempt < 100; ++attempt) {
    const fs::path candidate = parent / (attempt == 1 ? name : fmt::format("{}_{}", name, attempt));
    if (fs::create_directory(candidate, ec)) return candidate;
    if (ec) throw error(fmt::format("cannot create {}: {}; {}", candidate.string(), ec.message(), fix));
  }
  throw error(fmt::format("cannot find a free {} folder name under {}: remove old ones; {}", prefix,
                          parent.string(), fix));
}

}  // namespace kopt
