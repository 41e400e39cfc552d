#pragma once
// Writing files into a user's project or home without destroying their work: every file is
// planned first, a file that exists with other content is a conflict, and nothing is written
// while one remains unless the user said --force. A refused install leaves every file as it was.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kopt::cli {

struct planned_write {
  std::filesystem::path path;
  std::optional<std::string> content;  // none: the file already holds what kopt would write
  std::string conflict;                // not empty: what writing would replace (someone's change)
};

// `content` at `path`: a conflict when the file exists and holds something else.
planned_write plan_file(const std::filesystem::path& path, const std::string& content);

// Writes every planned file (atomically, one by one). Throws kopt::error naming the first
// conflict and the way out (--force) when there is one and `force` is false, before writing.
void carry_out(const std::vector<planned_write>& plan, bool force);

}  // namespace kopt::cli
