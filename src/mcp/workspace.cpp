#include "mcp/workspace.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::mcp {
namespace fs = std::filesystem;

workspace::workspace(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw error(fmt::format("the workspace {} is not a folder", root.string()));
  m_root = fs::canonical(root);
}

fs::path workspace::resolve(const std::string& given) const {
  if (given.empty()) throw error("an empty path: give a file in the workspace");
  const fs::path joined = fs::path(given).is_absolute() ? fs::path(given) : m_root / given;
  std::error_code ec;
  // Existing parts with their links followed, so that a link cannot lead out of the root.
  const fs::path resolved = fs::weakly_canonical(joined, ec);
  const fs::path checked = ec ? joined.lexically_normal() : resolved;
  const auto [root_end, _] = std::mismatch(m_root.begin(), m_root.end(), checked.begin(), checked.end());
  if (root_end != m_root.end()) {
    throw error(fmt::format("{} is outside the workspace {}: kopt's MCP server reads and writes only there (start it "
                            "in another folder, or with --workspace)",
                            given, m_root.string()));
  }
  return checked;
}

}  // namespace kopt::mcp
