#include "cli/skill_pack.h"

#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/install_layout.h"
#include "core/text.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;

// The YAML front matter's `key: value` (one line, as the pack writes it).
std::string front_matter_value(const std::string& text, const std::string& key) {
  if (text.rfind("---\n", 0) != 0) return "";
  const std::size_t end = text.find("\n---\n", 4);
  for (const std::string& line : split_lines(text.substr(4, end == std::string::npos ? 0 : end - 4))) {
    if (line.rfind(key + ":", 0) == 0) return std::string(trim(line.substr(key.size() + 1)));
  }
  return "";
}

// `target` of a link written in the file at `from` (both relative to one root), or "" when
// it leaves the root.
fs::path resolved(const fs::path& from, const std::string& target) {
  const fs::path path = (from.parent_path() / target).lexically_normal();
  if (path.empty() || *path.begin() == "..") return {};
  return path;
}

// Adds the documents `text` (at `from`) links to, and the ones they link to in turn. A link in
// SKILL.md must resolve (to the skill's own files or a shipped document); a document's link
// to something kopt does not ship (a benchmark's results) is left as it is.
void add_linked_documents(shipped_skill& skill, const fs::path& documents, const fs::path& from,
                          const std::string& text, std::set<fs::path>& have) {
  for (const std::string& target : relative_links(text)) {
    const fs::path relative = resolved(from, target);
    if (!relative.empty() && have.count(relative) > 0) continue;
    const fs::path source = documents / relative;
    std::error_code ec;
    if (relative.empty() || !fs::is_regular_file(source, ec)) {
      if (from != "SKILL.md") continue;
      throw error(fmt::format("the skill {} links {}, which this kopt does not ship (looked in {}): reinstall kopt",
                              skill.name, target, documents.string()));
    }
    have.insert(relative);
    skill.files.push_back({relative, read_text_file(source, "document")});
    const std::string added = skill.files.back().content;
    if (relative.extension() == ".md") add_linked_documents(skill, documents, relative, added, have);
  }
}

shipped_skill read_skill(const fs::path& folder, const fs::path& documents) {
  shipped_skill s;
  s.name = folder.filename().string();
  s.file = folder / "SKILL.md";
  const std::string text = read_text_file(s.file, "skill");
  s.description = front_matter_value(text, "description");
  if (front_matter_value(text, "name") != s.name || s.description.empty()) {
    throw error(fmt::format("the skill {} shipped with kopt has no front matter naming it {} with a description: "
                            "reinstall kopt",
                            s.file.string(), s.name));
  }
  s.files.push_back({"SKILL.md", text});
  std::set<fs::path> have{"SKILL.md"};
  std::vector<fs::path> own;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path() != s.file) own.push_back(entry.path().lexically_relative(folder));
  }
  std::sort(own.begin(), own.end());
  for (const fs::path& relative : own) {
    s.files.push_back({relative, read_text_file(folder / relative, "skill file")});
    have.insert(relative);
  }
  add_linked_documents(s, documents, "SKILL.md", text, have);
  return s;
}

}  // namespace

std::vector<std::string> relative_links(const std::string& markdown) {
  static const std::regex link(R"(\]\(([^)\s]+)\))");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(markdown.begin(), markdown.end(), link); it != std::sregex_iterator(); ++it) {
    std::string target = (*it)[1].str();
    target = target.substr(0, target.find('#'));
    if (target.empty() || target.front() == '/' || target.find("://") != std::string::npos ||
        target.rfind("mailto:", 0) == 0) {
      continue;
    }
    found.push_back(target);
  }
  return found;
}

std::vector<shipped_skill> shipped_skills() {
  const fs::path folder = companion_file(skills_folder);
  const fs::path documents = companion_file(documents_folder);
  std::vector<shipped_skill> found;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.is_directory() && fs::exists(entry.path() / "SKILL.md")) found.push_back(read_skill(entry.path(), documents));
  }
  std::sort(found.begin(), found.end(), [](const shipped_skill& a, const shipped_skill& b) { return a.name < b.name; });
  if (found.empty()) throw error(fmt::format("no skills in {}: reinstall kopt", folder.string()));
  return found;
}

}  // namespace kopt::cli
