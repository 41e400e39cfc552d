// GPU machine only: every command the skills pack shows that needs a GPU (bench, profile)
// runs as written and succeeds, as an agent following the skills would run it.
#include <gtest/gtest.h>

#include "skill_commands.h"
#include "support/kopt_process.h"

namespace kopt::testing {
namespace {

TEST(SkillsOnGpu, EveryCommandTheyShowRunsAsWritten) {
  scratch_dir dir;
  copy_command_inputs(source_dir(), dir.path());
  std::size_t ran = 0;
  for (const skill_command& c : skill_commands(source_dir() / "skills")) {
    if (!needs_gpu(c)) continue;
    const auto r = run_kopt(c.words, {{"KOPT_MEMORY_DB", (dir.path() / "memory.db").string()}}, dir.path());
    std::printf("%s: exit %d: %s\n", c.line.c_str(), r.exit_code, first_line(r.stderr_text).c_str());
    EXPECT_EQ(r.exit_code, 0) << c.skill << ": " << c.line << "\n" << r.stderr_text;
    ++ran;
  }
  EXPECT_GE(ran, 3u);
}

}  // namespace
}  // namespace kopt::testing
