#include "cli/install_plan.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"

namespace kopt::cli {
namespace fs = std::filesystem;

planned_write plan_file(const fs::path& path, const std::string& content) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return {path, content, ""};
  if (read_text_file(path, "installed file") == content) return {path, std::nullopt, ""};
  return {path, content, "it differs from what kopt installs (edited, or from another version of kopt)"};
}

void carry_out(const std::vector<planned_write>& plan, bool force) {
  std::vector<const planned_write*> conflicts;
  std::string detail;
  for (const planned_write& w : plan) {
    if (w.conflict.empty()) continue;
    conflicts.push_back(&w);
    detail += fmt::format("{}: {}\n", w.path.string(), w.conflict);
  }
  if (!conflicts.empty() && !force) {
    const std::size_t others = conflicts.size() - 1;
    const std::string more = others > 0 ? fmt::format(" (and {} other file{})", others, others == 1 ? "" : "s") : "";
    throw error(fmt::format("{} would be overwritten{}: {}; pass --force to replace what changed, or move it aside "
                            "(nothing was written)",
                            conflicts.front()->path.string(), more, conflicts.front()->conflict),
                others > 0 ? detail : "");
  }
  for (const planned_write& w : plan) {
    if (w.content) write_file_atomic(w.path, *w.content);
  }
}

}  // namespace kopt::cli
