#include "core/subprocess.h"

#include <atomic>
#include <thread>

#include "core/cancellation.h"

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

TEST(Subprocess, AGroupEndedAtTheTimeLimitLeavesNoZombieForTheNextRun) {
  // kopt adopts orphans; the background sleep, its parent killed first, becomes kopt's child.
  const auto timed_out = run_process({.argv = {"sh", "-c", "sleep 30 & sleep 30"}, .timeout = 300ms,
                                      .ends_with_program = true});
  EXPECT_TRUE(timed_out.timed_out);
  const auto plain = run_process({.argv = {"sh", "-c", "sleep 30 & sleep 30"}, .timeout = 300ms});
  EXPECT_TRUE(plain.timed_out);
  // The next measuring child finds nothing of them to blame on itself.
  const auto next = run_process({.argv = {"true"}, .ends_with_program = true});
  EXPECT_TRUE(next.left_running.empty()) << next.left_running.front();
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

TEST(Subprocess, AProcessTheProgramDetachesIsKilledAndNamedWhenItEnds) {
  // setsid leaves the program's process group (a timeout's kill would miss it) and its pipes
  // are closed, so nothing else would notice it.
  const auto r = run_process({.argv = {"sh", "-c", "setsid sleep 37 </dev/null >/dev/null 2>&1 & echo done"},
                              .ends_with_program = true});
  EXPECT_TRUE(r.succeeded()) << r.describe_end();
  EXPECT_EQ(r.stdout_text, "done\n");
  ASSERT_EQ(r.left_running.size(), 1u);
  EXPECT_NE(r.left_running[0].find("sleep 37"), std::string::npos) << r.left_running[0];
  const std::string pid = r.left_running[0].substr(0, r.left_running[0].find(' '));
  EXPECT_FALSE(std::filesystem::exists("/proc/" + pid)) << "the detached process still runs";
}

TEST(Subprocess, AProcessHoldingTheProgramsOutputDoesNotKeepTheRunWaiting) {
  const auto r = run_process({.argv = {"sh", "-c", "sleep 30 & echo started"}, .ends_with_program = true});
  EXPECT_TRUE(r.succeeded()) << r.describe_end();
  EXPECT_EQ(r.stdout_text, "started\n");
  EXPECT_LT(r.elapsed.count(), 10000) << "waited for the sleep holding stdout";
  ASSERT_EQ(r.left_running.size(), 1u);
}

TEST(Subprocess, AProgramAnotherThreadRunsMeanwhileIsNotTakenForOneLeftRunning) {
  // As ncu exports a profile while the comparison's measuring process runs: that export is
  // kopt's own child, not something the measured program left behind.
  process_result neighbour;
  std::jthread exporter([&] { neighbour = run_process({.argv = {"sh", "-c", "sleep 1.5; echo exported"}}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (int i = 0; i < 20; ++i) {
    const auto measured = run_process({.argv = {"true"}, .ends_with_program = true});
    EXPECT_TRUE(measured.left_running.empty()) << measured.left_running.front();
  }
  // Started while measured programs come and go, too.
  std::atomic<bool> done{false};
  std::jthread measuring([&] {
    while (!done) {
      const auto measured = run_process({.argv = {"true"}, .ends_with_program = true});
      EXPECT_TRUE(measured.left_running.empty()) << measured.left_running.front();
    }
  });
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(run_process({.argv = {"sh", "-c", "sleep 0.02"}}).succeeded());
  done = true;
  measuring.join();
  exporter.join();
  EXPECT_EQ(neighbour.stdout_text, "exported\n") << neighbour.describe_end();
  // A detached process is still found while the neighbour runs.
  std::jthread again([&] { neighbour = run_process({.argv = {"sleep", "1"}}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto r = run_process({.argv = {"sh", "-c", "setsid sleep 38 </dev/null >/dev/null 2>&1 &"}, .ends_with_program = true});
  again.join();
  ASSERT_EQ(r.left_running.size(), 1u);
  EXPECT_NE(r.left_running[0].find("sleep 38"), std::string::npos) << r.left_running[0];
}

TEST(Subprocess, AProgramThatLeavesNothingRunningReportsNothing) {
  const auto r = run_process({.argv = {"sh", "-c", "sleep 0.1 & wait; echo x"}, .ends_with_program = true});
  EXPECT_EQ(r.stdout_text, "x\n");
  EXPECT_TRUE(r.left_running.empty());
}

TEST(Subprocess, AProgramOfACancelledThreadIsKilledWithItsGroup) {
  std::atomic<bool> cancel{false};
  process_result run;
  std::thread worker([&] {
    set_thread_cancellation(&cancel);
    run = run_process({.argv = {"sh", "-c", "sleep 30 & sleep 30"}, .ends_with_program = true});
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  cancel = true;
  worker.join();
  EXPECT_TRUE(run.cancelled);
  EXPECT_FALSE(run.succeeded());
  EXPECT_EQ(run.describe_end(), "cancelled, and killed");
  EXPECT_LT(run.elapsed.count(), 5000);
  EXPECT_TRUE(run.left_running.empty()) << "its group went with it";
}

TEST(Subprocess, FindsExecutablesOnPath) {
  const auto sh = find_executable("sh");
  ASSERT_TRUE(sh.has_value());
  EXPECT_TRUE(sh->is_absolute());
  EXPECT_FALSE(find_executable("kopt-no-such-tool").has_value());
}

}  // namespace
}  // namespace kopt
