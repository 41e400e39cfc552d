#pragma once
// The files of one kopt profile run are made in a staging folder inside the output folder and
// renamed to their final names only once everything has succeeded, so a failed or killed run
// leaves no half-written file under a final name (and the previous run's files untouched).

#include <filesystem>
#include <string>
#include <vector>

namespace kopt::profile {

class staged_output {
 public:
  // Creates `out_dir` when missing and a fresh staging folder inside it.
  explicit staged_output(std::filesystem::path folder);
  // Removes the staging folder with whatever was not published.
  ~staged_output();
  staged_output(const staged_output&) = delete;
  staged_output& operator=(const staged_output&) = delete;

  const std::filesystem::path& out_dir() const { return m_out_dir; }
  // Where to make the file that will be published as `name`.
  std::filesystem::path staged(const std::string& name) const { return m_staging / name; }

  // Renames, in order, each staged file of `names` over out_dir()/name (one rename each, on
  // one file system); a name with no staged file is removed from out_dir(), so that the folder
  // never mixes two runs' files. Returns the published paths.
  std::vector<std::filesystem::path> publish(const std::vector<std::string>& names);

 private:
  std::filesystem::path m_out_dir;
  std::filesystem::path m_staging;
};

}  // namespace kopt::profile
