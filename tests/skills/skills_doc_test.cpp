// The skills pack on a machine without a GPU: every skill has the front matter Claude Code and
// Codex load (a name that is its folder's, a description), what an agent needs to follow it
// from zero, and every command the skills show that needs no GPU runs as written in the project
// they are written for and succeeds (the rest run on a GPU machine: skills_gpu_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "skill_commands.h"
#include "support/kopt_process.h"

namespace kopt::testing {
namespace {
namespace fs = std::filesystem;

std::string skill_text(const std::string& name) {
  return read_text_file(source_dir() / "skills" / name / "SKILL.md", "skill");
}

TEST(Skills, EachShipsWithAFrontMatterAnAgentLoads) {
  const auto r = run_kopt({"skills", "list", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto doc = nlohmann::json::parse(r.stdout_text);
  ASSERT_EQ(doc["skills"].size(), 3u) << doc.dump(1);
  for (const auto& s : doc["skills"]) {
    const std::string description = s["description"].get<std::string>();
    EXPECT_GE(description.size(), 80u) << "a description says what the skill is for and when to use it";
    // A plain YAML scalar: no ": " or " #" inside, nothing that starts a YAML construct.
    EXPECT_EQ(description.find(": "), std::string::npos) << s["name"];
    EXPECT_EQ(description.find(" #"), std::string::npos) << s["name"];
    EXPECT_EQ(std::string("[{&*!|>'\"%@`").find(description.front()), std::string::npos) << s["name"];
  }
}

TEST(Skills, EachTellsAnAgentFromZeroHowToGetKoptAndWhatItsExitCodesMean) {
  for (const char* name : {"kopt-bench", "kopt-profile", "kopt-optimize"}) {
    const std::string text = skill_text(name);
    EXPECT_NE(text.find("## Getting kopt"), std::string::npos) << name;
    EXPECT_NE(text.find("scripts/setup.sh"), std::string::npos) << name;
    EXPECT_NE(text.find("kopt skills install"), std::string::npos) << name;
    EXPECT_NE(text.find("kopt mcp"), std::string::npos) << name << ": the MCP server is named";
    EXPECT_NE(text.find("## Exit codes"), std::string::npos) << name;
    for (const char* code : {"- **0**", "- **1**", "- **2**"}) EXPECT_NE(text.find(code), std::string::npos) << name << code;
  }
}

TEST(Skills, TheOptimizeSkillSaysWhatToDoWhenAnInputIsMissingAndHowARunEnds) {
  const std::string text = skill_text("kopt-optimize");
  EXPECT_NE(text.find("`<stem>_ref.py`"), std::string::npos) << "no reference: look beside the kernel";
  EXPECT_NE(text.find("if there is none, ask the user"), std::string::npos);
  EXPECT_NE(text.find("`kopt inspect` shows the scalar parameters"), std::string::npos) << "no dimensions";
  EXPECT_NE(text.find("**The number of iterations.** None named? Ask the user"), std::string::npos);
  EXPECT_NE(text.find("broad first round"), std::string::npos) << "the Python toolkit's advice, and why kopt differs";
  EXPECT_NE(text.find("**Put the best version back.**"), std::string::npos) << "the last step";
  EXPECT_NE(text.find("**Confirm the best version.**"), std::string::npos) << "before it, the confirmation";
}

TEST(Skills, EveryCommandTheyShowThatNeedsNoGpuRunsAsWritten) {
  const auto commands = skill_commands(source_dir() / "skills");
  scratch_dir project;
  write_skills_project(source_dir(), project.path());
  write_gpu_results(source_dir(), project.path());
  std::size_t ran = 0;
  for (const skill_command& c : commands) {
    if (needs_gpu(c)) continue;
    const auto r = run_kopt(c.words, {{"KOPT_MEMORY_DB", (project.path() / "memory.db").string()}}, project.path());
    EXPECT_EQ(r.exit_code, 0) << c.skill << ": " << c.line << "\n" << r.stderr_text;
    ++ran;
  }
  EXPECT_GE(ran, 14u) << "the skills show --version, skills install, inspect, compile, analyze, kb, report and memory";
  EXPECT_GE(commands.size(), ran + 6) << "and bench, compare, profile and loop (run on a GPU machine)";
}

TEST(Skills, TheLoopCommandsOfARunNameTheFolderTheRunIsIn) {
  // Every loop line of kopt-optimize is a command, whatever its fence: the one that starts the
  // run names its folder, and the ones that continue it and report on it name the same one.
  std::vector<skill_command> loop;
  std::string report_dir;
  for (const skill_command& c : skill_commands(source_dir() / "skills")) {
    if (c.skill != "kopt-optimize") continue;
    if (c.words.front() == "loop") loop.push_back(c);
    if (c.words.front() == "report") report_dir = c.words.at(1);
  }
  ASSERT_EQ(loop.size(), 4u) << "start, continue, a run with --agent, and the final confirmation";
  EXPECT_TRUE(starts_a_run(loop[0])) << loop[0].line;
  const std::string run_dir = option_value(loop[0], "--run-dir");
  ASSERT_FALSE(run_dir.empty()) << loop[0].line;
  ASSERT_TRUE(continues_a_run(loop[1])) << loop[1].line;
  EXPECT_EQ(option_value(loop[1], "--run-dir"), run_dir);
  EXPECT_EQ(report_dir, run_dir);
  EXPECT_EQ(loop[3].words, (std::vector<std::string>{"loop", "--finish", "--run-dir", run_dir})) << loop[3].line;
  std::vector<std::string> start = loop[0].words;
  start.erase(std::find(start.begin(), start.end(), "--new-run"));
  EXPECT_EQ(start, loop[1].words) << "the same command again, without --new-run";
}

}  // namespace
}  // namespace kopt::testing
