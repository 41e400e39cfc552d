// kopt skills install as a user runs it in a project: the skills land where the agent looks,
// with every document they link to, kopt's MCP server is registered for that agent beside what
// the configuration already held, and nothing a user changed is overwritten without --force.
#include <gtest/gtest.h>

#include <regex>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const char* const skill_names[] = {"kopt-bench", "kopt-profile", "kopt-optimize"};

// The relative link targets of a markdown file that do not exist beside it.
std::vector<std::string> broken_links(const fs::path& file) {
  static const std::regex link(R"(\]\(([^)\s#]+)(#[^)\s]*)?\))");
  const std::string text = read_text_file(file);
  std::vector<std::string> broken;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
    const std::string target = (*it)[1].str();
    if (target.find("://") != std::string::npos) continue;
    if (!fs::exists(file.parent_path() / target)) broken.push_back(target);
  }
  return broken;
}

TEST(SkillsInstall, PutsEverySkillWhereClaudeCodeLooksWithTheDocumentsItLinksTo) {
  const scratch_dir project;
  const auto r = run_kopt({"skills", "install"}, {}, project.path());
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::size_t linked = 0;
  for (const char* name : skill_names) {
    const fs::path folder = project.path() / ".claude/skills" / name;
    ASSERT_TRUE(fs::exists(folder / "SKILL.md")) << folder;
    EXPECT_EQ(read_text_file(folder / "SKILL.md"), read_text_file(source_dir() / "skills" / name / "SKILL.md"));
    EXPECT_NE(r.stdout_text.find((folder / "SKILL.md").string()), std::string::npos) << r.stdout_text;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      if (entry.path().extension() != ".md") continue;
      EXPECT_EQ(broken_links(entry.path()), std::vector<std::string>{}) << entry.path();
      ++linked;
    }
  }
  EXPECT_GE(linked, 6u) << "the skills link docs/annotations.md, docs/integrity.md, docs/loop.md and theirs";
  // The --agent protocol's variables, which only docs/loop.md lists, travel with the skill.
  const std::string loop = read_text_file(project.path() / ".claude/skills/kopt-optimize/docs/loop.md");
  EXPECT_EQ(loop, read_text_file(source_dir() / "docs/loop.md"));
  EXPECT_NE(loop.find("| `KOPT_BEST_VERSION` |"), std::string::npos);
}

TEST(SkillsInstall, RegistersTheMcpServerInTheProjectsMcpJsonBesideItsOtherServers) {
  const scratch_dir project;
  project.write(".mcp.json", R"({"mcpServers": {"docs": {"command": "docs-server"}}, "note": "kept"})");
  const auto r = run_kopt({"skills", "install"}, {}, project.path());
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const json config = json::parse(read_text_file(project.path() / ".mcp.json"));
  EXPECT_EQ(config["mcpServers"]["kopt"], (json{{"command", kopt_binary().string()}, {"args", {"mcp"}}}));
  EXPECT_EQ(config["mcpServers"]["docs"]["command"], "docs-server");
  EXPECT_EQ(config["note"], "kept");
  EXPECT_NE(r.stdout_text.find("kopt's MCP server (" + kopt_binary().string() + " mcp) registered for Claude Code in " +
                               (project.path() / ".mcp.json").string()),
            std::string::npos)
      << r.stdout_text;

  // Settings a user added to kopt's entry are not a change of it.
  json with_env = config;
  with_env["mcpServers"]["kopt"]["env"] = {{"CUDA_VISIBLE_DEVICES", "1"}};
  write_file_atomic(project.path() / ".mcp.json", with_env.dump(2));
  const auto again = run_kopt({"skills", "install"}, {}, project.path());
  ASSERT_EQ(again.exit_code, 0) << again.stderr_text;
  EXPECT_NE(again.stdout_text.find("was already registered"), std::string::npos) << again.stdout_text;
  EXPECT_EQ(read_text_file(project.path() / ".mcp.json"), with_env.dump(2));
}

TEST(SkillsInstall, NamesKoptByItsNameWhenPathFindsThisKopt) {
  // A project's .mcp.json is shared: a path on one machine would not start kopt on another.
  const scratch_dir project;
  fs::create_directories(project.path() / "bin");
  fs::create_symlink(kopt_binary(), project.path() / "bin/kopt");
  const auto r = run_kopt({"skills", "install"}, {{"PATH", (project.path() / "bin").string() + ":/usr/bin:/bin"}},
                          project.path());
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(json::parse(read_text_file(project.path() / ".mcp.json"))["mcpServers"]["kopt"]["command"], "kopt");
}

TEST(SkillsInstall, ForCodexPutsTheSkillsInAgentsSkillsAndTheServerInCodexsConfig) {
  const scratch_dir project;
  const std::string kept = "model = \"o4\"\n\n[mcp_servers.docs]\ncommand = \"docs-server\"\n";
  project.write("codex/config.toml", kept);
  const auto r = run_kopt({"skills", "install", "--agent", "codex"}, {{"CODEX_HOME", (project.path() / "codex").string()}},
                          project.path());
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(fs::exists(project.path() / ".agents/skills/kopt-optimize/SKILL.md"));
  EXPECT_FALSE(fs::exists(project.path() / ".mcp.json")) << "Claude Code's file is left alone";
  EXPECT_EQ(read_text_file(project.path() / "codex/config.toml"),
            kept + "\n[mcp_servers.kopt]\ncommand = \"" + kopt_binary().string() + "\"\nargs = [\"mcp\"]\n");

  // Settings a user added to kopt's server are not a change of it.
  const std::string with_env = read_text_file(project.path() / "codex/config.toml") + "env = { CUDA_VISIBLE_DEVICES = \"1\" }\n";
  write_file_atomic(project.path() / "codex/config.toml", with_env);
  const auto again = run_kopt({"skills", "install", "--agent", "codex"}, {{"CODEX_HOME", (project.path() / "codex").string()}},
                              project.path());
  ASSERT_EQ(again.exit_code, 0) << again.stderr_text;
  EXPECT_EQ(read_text_file(project.path() / "codex/config.toml"), with_env);

  // Without CODEX_HOME, Codex reads ~/.codex.
  const auto home = run_kopt({"skills", "install", "--agent", "codex"},
                             {{"CODEX_HOME", ""}, {"HOME", (project.path() / "home").string()}}, project.path());
  ASSERT_EQ(home.exit_code, 0) << home.stderr_text;
  EXPECT_NE(read_text_file(project.path() / "home/.codex/config.toml").find("[mcp_servers.kopt]"), std::string::npos);
}

TEST(SkillsInstall, RefusesToOverwriteWhatAUserChangedUnlessForced) {
  const scratch_dir project;
  const std::map<std::string, std::string> codex = {{"CODEX_HOME", (project.path() / "codex").string()}};
  ASSERT_EQ(run_kopt({"skills", "install", "--agent", "codex"}, codex, project.path()).exit_code, 0);
  const fs::path skill = project.path() / ".agents/skills/kopt-bench/SKILL.md";
  const fs::path config = project.path() / "codex/config.toml";
  const std::string edited_skill = read_text_file(skill) + "\nOur team benches with --hot.\n";
  write_file_atomic(skill, edited_skill);
  const std::string edited_config =
      "[mcp_servers.kopt]\ncommand = \"/opt/other/kopt\"\nargs = [\"mcp\"]\nstartup_timeout_sec = 30\n";
  write_file_atomic(config, edited_config);

  const auto refused = run_kopt({"skills", "install", "--agent", "codex"}, codex, project.path());
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(first_line(refused.stderr_text),
            "kopt: error: " + skill.string() +
                " would be overwritten (and 1 other file): it differs from what kopt installs (edited, or from another "
                "version of kopt); pass --force to replace what changed, or move it aside (nothing was written)");
  EXPECT_NE(refused.stderr_text.find(config.string() + ": its [mcp_servers.kopt] table's command and args are not"),
            std::string::npos)
      << refused.stderr_text;
  EXPECT_EQ(read_text_file(skill), edited_skill);
  EXPECT_EQ(read_text_file(config), edited_config);

  const auto forced = run_kopt({"skills", "install", "--agent", "codex", "--force"}, codex, project.path());
  ASSERT_EQ(forced.exit_code, 0) << forced.stderr_text;
  EXPECT_EQ(read_text_file(skill), read_text_file(source_dir() / "skills/kopt-bench/SKILL.md"));
  EXPECT_EQ(read_text_file(config), "[mcp_servers.kopt]\ncommand = \"" + kopt_binary().string() +
                                        "\"\nargs = [\"mcp\"]\nstartup_timeout_sec = 30\n")
      << "the user's own settings of the server stay";
}

TEST(SkillsInstall, AnMcpJsonKoptCannotReadIsNamedNotReplaced) {
  const scratch_dir project;
  project.write(".mcp.json", "{\"mcpServers\": [\n");
  const auto r = run_kopt({"skills", "install"}, {}, project.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: " + (project.path() / ".mcp.json").string() +
                " is not an MCP configuration kopt can add to (a JSON object whose \"mcpServers\" is an object): fix "
                "it, or move it aside and run kopt skills install again");
  EXPECT_EQ(read_text_file(project.path() / ".mcp.json"), "{\"mcpServers\": [\n");
  EXPECT_FALSE(fs::exists(project.path() / ".claude")) << "nothing is installed by a refused call";
}

}  // namespace
}  // namespace kopt::testing
