// kopt skills list|install [--dir DIR]: the skills pack (SKILL.md files for Claude Code, Codex
// and the like: when to use kopt's commands, the optimization loop's protocol, what the judge
// refuses, what to report), shipped beside kopt and copied where an agent finds them.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/files.h"
#include "core/install_layout.h"
#include "core/json_io.h"
#include "core/text.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;

struct skill {
  std::string name;
  std::string description;
  fs::path file;
  std::string text;
};

// The YAML front matter's `key: value` (one line, as the pack writes it).
std::string front_matter_value(const std::string& text, const std::string& key) {
  if (text.rfind("---\n", 0) != 0) return "";
  const std::size_t end = text.find("\n---\n", 4);
  for (const std::string& line : split_lines(text.substr(4, end == std::string::npos ? 0 : end - 4))) {
    if (line.rfind(key + ":", 0) == 0) return std::string(trim(line.substr(key.size() + 1)));
  }
  return "";
}

std::vector<skill> shipped_skills() {
  const fs::path folder = companion_file(skills_folder);
  std::vector<skill> found;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const fs::path file = entry.path() / "SKILL.md";
    if (!entry.is_directory() || !fs::exists(file)) continue;
    skill s{entry.path().filename().string(), "", file, read_text_file(file, "skill")};
    s.description = front_matter_value(s.text, "description");
    if (front_matter_value(s.text, "name") != s.name || s.description.empty()) {
      throw error(fmt::format("the skill {} shipped with kopt has no front matter naming it {} with a description: "
                              "reinstall kopt",
                              file.string(), s.name));
    }
    found.push_back(std::move(s));
  }
  std::sort(found.begin(), found.end(), [](const skill& a, const skill& b) { return a.name < b.name; });
  if (found.empty()) throw error(fmt::format("no skills in {}: reinstall kopt", folder.string()));
  return found;
}

class skills_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "the skills kopt ships, with what each is for");
    m_install = sub.add_subcommand("install", "copy the skills where an agent finds them");
    m_install->add_option("--dir", m_dir,
                          "the agent's skills folder (default .claude/skills here: Claude Code's project skills; "
                          "~/.claude/skills for every project)");
    for (CLI::App* action : {m_list, m_install}) action->add_flag("--json", m_json, "print JSON");
    add_verbosity_flags(*m_install, m_level, false);
  }

  int run(const pipeline::services&) override {
    const std::vector<skill> skills = shipped_skills();
    json listed = json::array();
    const printer print(m_level);
    if (m_install->parsed()) {
      const fs::path dir = fs::absolute(m_dir);
      for (const skill& s : skills) {
        const fs::path target = dir / s.name / "SKILL.md";
        fs::create_directories(target.parent_path());
        write_file_atomic(target, s.text);
        listed.push_back(json{{"name", s.name}, {"file", target.string()}, {"description", s.description}});
        if (!m_json) print.line(fmt::format("installed {}: {}", s.name, target.string()));
      }
      if (!m_json) print.result(fmt::format("installed {} skills in {}", skills.size(), dir.string()));
    } else {
      for (const skill& s : skills) {
        listed.push_back(json{{"name", s.name}, {"file", s.file.string()}, {"description", s.description}});
        if (!m_json) std::printf("%-14s %s\n", s.name.c_str(), s.description.c_str());
      }
    }
    if (m_json) std::printf("%s\n", json_text(with_schema("skills", 1, json{{"skills", listed}})).c_str());
    return static_cast<int>(exit_status::ok);
  }

 private:
  CLI::App* m_list = nullptr;
  CLI::App* m_install = nullptr;
  std::string m_dir = ".claude/skills";
  bool m_json = false;
  verbosity m_level = verbosity::normal;
};

}  // namespace

std::unique_ptr<command> make_skills_command() { return std::make_unique<skills_command>(); }

}  // namespace kopt::cli
