#include "core/subprocess.h"

#include <csignal>

#include <gtest/gtest.h>

#include "support/kopt_process.h"

namespace kopt {
namespace {
using namespace std::chrono_literals;

TEST(Subprocess, CapturesBothStreamsAndExitCode) {
  const auto r = run_process({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}});
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.stdout_text, "out\n");
  EXPECT_EQ(r.stderr_text, "err\n");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.describe_end(), "exit code 3");
}

TEST(Subprocess, ArgumentsAreNotInterpretedByAShell) {
  const auto r = run_process({.argv = {"echo", "$HOME; rm -rf /"}});
  EXPECT_EQ(r.stdout_text, "$HOME; rm -rf /\n");
}

TEST(Subprocess, KillsTheProcessGroupAtTheTimeout) {
  // The grandchild `sleep` holds the pipes open; the whole group must die.
  const auto r = run_process({.argv = {"sh", "-c", "sleep 30 & sleep 30"}, .timeout = 300ms});
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.elapsed, 5s);
  EXPECT_NE(r.describe_end().find("timed out"), std::string::npos);
}

TEST(Subprocess, ReportsTheSignalThatEndedTheProgram) {
  const auto r = run_process({.argv = {"sh", "-c", "kill -SEGV $$"}});
  EXPECT_EQ(r.term_signal, SIGSEGV);
  EXPECT_NE(r.describe_end().find("signal 11"), std::string::npos);
}

TEST(Subprocess, MissingProgramIsNotStarted) {
  const auto r = run_process({.argv = {"/nonexistent/tool"}});
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.start_error.find("/nonexistent/tool"), std::string::npos);
}

TEST(Subprocess, EnvironmentCanBeAddedAndRemoved) {
  ::setenv("KOPT_TEST_REMOVE_ME", "x", 1);
  const auto r = run_process({.argv = {"sh", "-c", "echo \"$KOPT_A|${KOPT_TEST_REMOVE_ME-unset}\""},
                              .extra_env = {{"KOPT_A", "set"}},
                              .unset_env = {"KOPT_TEST_REMOVE_ME"}});
  EXPECT_EQ(r.stdout_text, "set|unset\n");
}

TEST(Subprocess, RunsInTheRequestedFolder) {
  testing::scratch_dir dir;
  const auto r = run_process({.argv = {"pwd"}, .working_dir = dir.path()});
  EXPECT_EQ(r.stdout_text, std::filesystem::canonical(dir.path()).string() + "\n");
}

TEST(Subprocess, LargeOutputDoesNotDeadlock) {
  const auto r = run_process({.argv = {"sh", "-c", "head -c 3000000 /dev/zero; head -c 3000000 /dev/zero >&2"}});
  EXPECT_EQ(r.stdout_text.size(), 3000000u);
  EXPECT_EQ(r.stderr_text.size(), 3000000u);
}

TEST(Subprocess, FindsExecutablesOnPath) {
  const auto sh = find_executable("sh");
  ASSERT_TRUE(sh.has_value());
  EXPECT_TRUE(sh->is_absolute());
  EXPECT_FALSE(find_executable("kopt-no-such-tool").has_value());
}

}  // namespace
}  // namespace kopt
