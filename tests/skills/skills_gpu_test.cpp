// GPU machine only: an agent that knows nothing but the installed skills. In a scratch project
// outside kopt's checkout holding a naive softmax and its reference, it installs the skills with
// the kopt under test ($KOPT_BIN: a build, or an installed wheel's), then runs every command
// the installed SKILL.md files show, in their order, as written; between the calls that
// continue the loop's run it writes the next version (the block-per-row softmax) and its
// strategy tags, as the skill tells it to. The run must end with that version as the best,
// and the skill's last step must put it back into the kernel file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "skill_commands.h"
#include "support/kopt_process.h"

namespace kopt::testing {
namespace {
namespace fs = std::filesystem;

// The agent's part before a call that continues the run: the next version into the kernel
// file, its strategy into the last iteration's proposal (kopt-optimize, "Each iteration").
void write_next_version(const fs::path& project, const fs::path& run_dir) {
  const nlohmann::json manifest = nlohmann::json::parse(read_text_file(run_dir / "run_manifest.json"));
  const int last = manifest["iterations"].back()["iteration"].get<int>();
  const fs::path proposal = run_dir / ("iter_v" + std::to_string(last)) / "optimization_proposal.md";
  write_file_atomic(proposal, read_text_file(proposal) + "- one_block_per_row\n- warp_shuffle_reduction\n");
  write_file_atomic(project / "softmax.cu", read_text_file(project / "softmax_v2.cu"));
}

TEST(SkillsOnGpu, AnAgentFollowingOnlyTheInstalledSkillsOptimizesANaiveSoftmax) {
  scratch_dir project;
  write_skills_project(source_dir(), project.path());
  const std::map<std::string, std::string> env = {{"KOPT_MEMORY_DB", (project.path() / "memory.db").string()}};
  const auto installed = run_kopt({"skills", "install"}, env, project.path());
  ASSERT_EQ(installed.exit_code, 0) << installed.stderr_text;
  const auto commands = skill_commands(project.path() / ".claude/skills");

  std::size_t on_gpu = 0;
  fs::path run_dir;
  for (const skill_command& c : commands) {
    if (continues_a_run(c)) write_next_version(project.path(), project.path() / option_value(c, "--run-dir"));
    const auto r = run_kopt(c.words, env, project.path());
    std::printf("%s: exit %d: %s\n", c.line.c_str(), r.exit_code, first_line(r.stderr_text).c_str());
    ASSERT_EQ(r.exit_code, 0) << c.skill << ": " << c.line << "\n" << r.stdout_text << r.stderr_text;
    if (needs_gpu(c)) ++on_gpu;
    if (starts_a_run(c)) run_dir = project.path() / option_value(c, "--run-dir");
  }
  EXPECT_GE(on_gpu, 8u) << "bench (CUDA, Triton), compare, four loop calls and profile";
  ASSERT_FALSE(run_dir.empty()) << "kopt-optimize starts a named run";

  const nlohmann::json manifest = nlohmann::json::parse(read_text_file(run_dir / "run_manifest.json"));
  ASSERT_EQ(manifest["iterations"].size(), 2u) << manifest.dump(1);
  EXPECT_EQ(manifest["iterations"][1]["outcome"], "positive") << manifest["iterations"][1].dump(1);
  ASSERT_EQ(manifest["best"], 1);
  // kopt loop --finish confirmed it.
  const nlohmann::json confirmation = nlohmann::json::parse(read_text_file(run_dir / "confirmation.json"));
  EXPECT_EQ(confirmation["verdict"], "confirmed") << confirmation.dump(1);
  EXPECT_EQ(confirmation["best"], 1) << confirmation.dump(1);
  // The last step: the best version's snapshot back into the kernel file.
  const fs::path best = run_dir / manifest["iterations"][1]["snapshot"].get<std::string>();
  write_file_atomic(project.path() / "softmax.cu", read_text_file(best));
  EXPECT_EQ(read_text_file(project.path() / "softmax.cu"), read_text_file(project.path() / "softmax_v2.cu"));
}

}  // namespace
}  // namespace kopt::testing
