#pragma once
// The folder an MCP server was started in, and the only one its tools read or write: every
// path an agent passes is resolved in it (relative to it, symbolic links followed) and refused
// when it lands outside.

#include <filesystem>
#include <string>

namespace kopt::mcp {

class workspace {
 public:
  // Throws kopt::error when `root` is not a folder.
  explicit workspace(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return m_root; }

  // `given` (relative to the root, or absolute) as an absolute path inside the root. Throws
  // kopt::error "PATH is outside the workspace ROOT: ..." otherwise.
  std::filesystem::path resolve(const std::string& given) const;

 private:
  std::filesystem::path m_root;
};

}  // namespace kopt::mcp
