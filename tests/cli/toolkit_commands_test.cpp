// The Python toolkit's README commands run unchanged against kopt (toolkit_commands.h): every
// flag is accepted and every file found, so each command goes as far as the machine lets it: on
// a machine without a GPU, to kopt saying that it needs one (never a usage error); with one, to
// its result (toolkit_commands_gpu_test.cpp runs them there).
#include <gtest/gtest.h>

#include "support/kopt_process.h"
#include "toolkit_commands.h"

namespace kopt {
namespace {

TEST(ToolkitCommands, TheReadmesCommandsAreAcceptedAsTheyAre) {
  testing::scratch_dir work;
  testing::copy_toolkit_examples(work.path());
  for (const auto& command : testing::toolkit_readme_commands(work.path())) {
    const auto r = testing::run_kopt(command.args);
    const std::string line = testing::first_line(r.stderr_text);
    if (r.exit_code == 2) {
      EXPECT_NE(line.find("GPU"), std::string::npos) << command.what << ": " << r.stderr_text;
      for (const char* usage : {"not expected", "unknown", "--help", "requires", "is required", "not found"}) {
        EXPECT_EQ(line.find(usage), std::string::npos) << command.what << ": " << line;
      }
    } else {
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << command.what << ": " << r.stderr_text;
    }
  }
}

}  // namespace
}  // namespace kopt
