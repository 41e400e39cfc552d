// kopt skills list|install [--agent claude|codex] [--dir DIR] [--force]: the skills pack
// (SKILL.md files for Claude Code, Codex and the like: when to use kopt's commands, the
// optimization loop's protocol, what the judge refuses, what to report), shipped beside kopt
// and copied where an agent finds them, with the documents they link to, and kopt's MCP server
// registered for that agent.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/install_plan.h"
#include "cli/mcp_registration.h"
#include "cli/skill_pack.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_io.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;

struct agent_kind {
  const char* name;
  const char* title;          // for the user
  const char* skills_folder;  // the project's, relative to the current folder
};

// Where each agent reads a project's skills (Claude Code: .claude/skills; Codex: .agents/skills).
constexpr agent_kind agents[] = {{"claude", "Claude Code", ".claude/skills"}, {"codex", "Codex", ".agents/skills"}};

const agent_kind& agent_named(const std::string& name) {
  for (const agent_kind& a : agents) {
    if (name == a.name) return a;
  }
  return agents[0];  // CLI11 checked the name
}

class skills_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "the skills kopt ships, with what each is for");
    m_install = sub.add_subcommand("install", "copy the skills where an agent finds them and register kopt's MCP server");
    m_install->add_option("--agent", m_agent,
                          "claude: skills in .claude/skills, the MCP server in the project's .mcp.json; codex: skills "
                          "in .agents/skills, the MCP server in $CODEX_HOME/config.toml (default ~/.codex)")
        ->check(CLI::IsMember({"claude", "codex"}))
        ->default_val("claude");
    m_install->add_option("--dir", m_dir, "the skills folder (default: the agent's in this project; ~/.claude/skills "
                                          "for every project of Claude Code)");
    m_install->add_flag("--force", m_force, "replace skill files and kopt's MCP entry even where they were changed");
    for (CLI::App* action : {m_list, m_install}) action->add_flag("--json", m_output.json, "print JSON");
    add_verbosity_flags(*m_install, m_output.level, false);
  }

  int run(const pipeline::services&) override {
    const std::vector<shipped_skill> skills = shipped_skills();
    json listed = json::array();
    if (!m_install->parsed()) {
      for (const shipped_skill& s : skills) {
        listed.push_back(json{{"name", s.name}, {"file", s.file.string()}, {"description", s.description}});
        if (!m_output.json) std::printf("%-14s %s\n", s.name.c_str(), s.description.c_str());
      }
      if (m_output.json)
        std::printf("%s\n", json_text(with_schema("skills", 1, json{{"skills", listed}})).c_str());
      return static_cast<int>(exit_status::ok);
    }
    const agent_kind& agent = agent_named(m_agent);
    const fs::path dir = fs::absolute(m_dir.empty() ? fs::path(agent.skills_folder) : fs::path(m_dir));
    std::vector<planned_write> plan;
    for (const shipped_skill& s : skills) {
      for (const skill_file& f : s.files) plan.push_back(plan_file(dir / s.name / f.relative, f.content));
      listed.push_back(json{{"name", s.name}, {"file", (dir / s.name / "SKILL.md").string()}, {"description", s.description}});
    }
    const std::string server = kopt_command_for_agents();
    plan.push_back(agent.name == std::string("codex") ? codex_mcp_registration(codex_config_file(), server)
                                                      : claude_mcp_registration(fs::absolute(".mcp.json"), server));
    const planned_write& registration = plan.back();
    carry_out(plan, m_force);

    const json mcp = {{"agent", agent.name}, {"file", registration.path.string()}, {"command", server},
                      {"changed", registration.content.has_value()}};
    if (m_output.json) {
      std::printf("%s\n", json_text(with_schema("skills", 1, json{{"skills", listed}, {"mcp", mcp}})).c_str());
      return static_cast<int>(exit_status::ok);
    }
    const printer print(m_output.level);
    for (const json& s : listed) print.line(fmt::format("installed {}: {}", s["name"].get<std::string>(), s["file"].get<std::string>()));
    print.line(fmt::format("kopt's MCP server ({} mcp) {} for {} in {}", server,
                           registration.content ? "registered" : "was already registered", agent.title,
                           registration.path.string()));
    print.result(fmt::format("installed {} skills in {}", skills.size(), dir.string()));
    return static_cast<int>(exit_status::ok);
  }

 private:
  CLI::App* m_list = nullptr;
  CLI::App* m_install = nullptr;
  std::string m_agent = "claude";
  std::string m_dir;
  bool m_force = false;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_skills_command() { return std::make_unique<skills_command>(); }

}  // namespace kopt::cli
