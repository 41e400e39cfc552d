// The skills pack on a machine without a GPU: every skill has the front matter Claude Code and
// Codex load (a name that is its folder's, a description), `kopt skills install` puts them where
// an agent finds them, and every command the skills show that needs no GPU runs as written and
// succeeds. The rest run on a GPU machine (skills_gpu_test.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "skill_commands.h"
#include "support/kopt_process.h"

namespace kopt::testing {
namespace {
namespace fs = std::filesystem;

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

TEST(Skills, InstallPutsEveryOneWhereTheAgentLooks) {
  scratch_dir dir;
  const auto r = run_kopt({"skills", "install"}, {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  for (const char* name : {"kopt-bench", "kopt-profile", "kopt-optimize"}) {
    const fs::path installed = dir.path() / ".claude/skills" / name / "SKILL.md";
    ASSERT_TRUE(fs::exists(installed)) << installed;
    EXPECT_EQ(read_text_file(installed, "skill"), read_text_file(source_dir() / "skills" / name / "SKILL.md", "skill"));
    EXPECT_NE(r.stdout_text.find(installed.string()), std::string::npos) << r.stdout_text;
  }
  const fs::path other = dir.path() / "codex";
  ASSERT_EQ(run_kopt({"skills", "install", "--dir", other.string()}).exit_code, 0);
  EXPECT_TRUE(fs::exists(other / "kopt-optimize/SKILL.md"));
}

TEST(Skills, EveryCommandTheyShowThatNeedsNoGpuRunsAsWritten) {
  const auto commands = skill_commands(source_dir() / "skills");
  std::size_t ran = 0;
  scratch_dir dir;
  copy_command_inputs(source_dir(), dir.path());
  for (const skill_command& c : commands) {
    if (needs_gpu(c)) continue;
    const auto r = run_kopt(c.words, {{"KOPT_MEMORY_DB", (dir.path() / "memory.db").string()}}, dir.path());
    EXPECT_EQ(r.exit_code, 0) << c.skill << ": " << c.line << "\n" << r.stderr_text;
    ++ran;
  }
  EXPECT_GE(ran, 7u) << "the skills show inspect, compile, analyze, kb and memory";
  EXPECT_GE(commands.size(), ran + 3) << "and bench, profile (run on a GPU machine)";
}

}  // namespace
}  // namespace kopt::testing
