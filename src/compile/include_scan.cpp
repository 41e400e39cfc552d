#include "compile/include_scan.h"

#include <algorithm>
#include <regex>

#include "core/files.h"
#include "core/text.h"

namespace kopt::compile {
namespace fs = std::filesystem;

std::optional<quoted_include> quoted_include_of(const std::string& line) {
  static const std::regex pattern(R"re(^[ \t]*#[ \t]*include[ \t]*"([^"]+)")re");
  std::smatch match;
  if (!std::regex_search(line, match, pattern)) return std::nullopt;
  return quoted_include{match[1].str(), static_cast<std::size_t>(match.position(1)),
                        static_cast<std::size_t>(match.length(1))};
}

std::vector<fs::path> local_include_closure(const fs::path& source) {
  const fs::path root_dir = fs::absolute(source).parent_path();
  std::vector<fs::path> files{fs::absolute(source).lexically_normal()};
  for (size_t next = 0; next < files.size(); ++next) {
    const fs::path current = files[next];
    for (const std::string& line : split_lines(read_text_file(current, "included header"))) {
      const std::optional<quoted_include> include = quoted_include_of(line);
      if (!include) continue;
      // The compiler looks beside the including file first, then in -I folders; kopt passes
      // the kernel's own folder as -I.
      for (const fs::path& base : {current.parent_path(), root_dir}) {
        std::error_code ec;
        const fs::path candidate = (base / include->name).lexically_normal();
        if (!fs::is_regular_file(candidate, ec)) continue;
        if (std::find(files.begin(), files.end(), candidate) == files.end()) files.push_back(candidate);
        break;
      }
    }
  }
  return files;
}

}  // namespace kopt::compile
