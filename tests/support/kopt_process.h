#pragma once
// Running the real kopt binary from whole-program tests, and scratch folders for them.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/subprocess.h"

namespace kopt::testing {

// The kopt binary under test: $KOPT_BIN, else the one this build made.
std::filesystem::path kopt_binary();
// The repository root, for examples/: $KOPT_SOURCE_DIR, else this build's source tree.
std::filesystem::path source_dir();

// Runs `kopt args...` with a private compile cache unless `env` names KOPT_CACHE_DIR.
process_result run_kopt(const std::vector<std::string>& args,
                        const std::map<std::string, std::string>& env = {},
                        const std::filesystem::path& working_dir = {});

// The first line of a text ("" when empty).
std::string first_line(const std::string& text);

// A fresh folder under the system temp dir, removed when the object dies.
class scratch_dir {
 public:
  scratch_dir();
  ~scratch_dir();
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  // Writes `content` to path()/name and returns the full path.
  std::filesystem::path write(const std::string& name, const std::string& content) const;

 private:
  std::filesystem::path m_path;
};

// A Unix socket bound at `path`: a file that is neither a regular file nor a folder, for what
// kopt must refuse to write over. Closed when the object dies (the file stays).
class bound_socket {
 public:
  explicit bound_socket(const std::filesystem::path& path);
  ~bound_socket();
  bound_socket(const bound_socket&) = delete;
  bound_socket& operator=(const bound_socket&) = delete;

 private:
  int m_fd = -1;
};

}  // namespace kopt::testing
