// Programs started ahead of their work: they wait at their gate, start working when it opens
// (the time limit counted from then), leave without working when it never does, and are no
// neighbour's "process left running".
#include "core/gated_process.h"

#include <chrono>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "core/orphans.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
using namespace std::chrono_literals;
using kopt::testing::scratch_dir;

TEST(GatedProcess, RunsItsWorkWhenTheGateOpens) {
  gated_process program({.argv = {"sh", "-c", "read line; echo \"got $line\"; echo err >&2; exit 4"}});
  ASSERT_TRUE(program.started());
  std::this_thread::sleep_for(100ms);
  EXPECT_TRUE(program.waiting());
  const process_result end = program.open("go", 10s);
  EXPECT_EQ(end.stdout_text, "got go\n");
  EXPECT_EQ(end.stderr_text, "err\n");
  EXPECT_EQ(end.exit_code, 4);
}

// Before its gate opens, a program can be asked something and answer on its standard input.
TEST(GatedProcess, AProgramAnswersAtItsGateBeforeItOpens) {
  gated_process program({.argv = {"sh", "-c",
                                  "echo ready >&0; read question; echo \"answer to $question\" >&0; "
                                  "read line; echo \"got $line\""}});
  ASSERT_TRUE(program.started());
  EXPECT_EQ(program.hear(5s), std::optional<std::string>("ready"));
  EXPECT_TRUE(program.heard().empty()) << "nothing more was said";
  ASSERT_TRUE(program.say("context"));
  EXPECT_EQ(program.hear(5s), std::optional<std::string>("answer to context"));
  EXPECT_TRUE(program.waiting());
  const process_result end = program.open("go", 10s);
  EXPECT_EQ(end.stdout_text, "got go\n");
  EXPECT_EQ(end.exit_code, 0);
}

TEST(GatedProcess, HearingFromAProgramThatSaysNothingOrEndsGivesNothing) {
  gated_process quiet({.argv = {"sh", "-c", "read line"}});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(quiet.hear(200ms).has_value());
  EXPECT_GE(std::chrono::steady_clock::now() - start, 150ms) << "it waited";
  gated_process gone({.argv = {"sh", "-c", "printf half >&0; exit 0"}});
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_FALSE(gone.hear(5s).has_value()) << "half a line, then its end";
  EXPECT_LT(std::chrono::steady_clock::now() - asked, 4s);
}

TEST(GatedProcess, TheTimeLimitCountsFromTheGate) {
  // Its start-up (1.2 s) is longer than the limit (1 s); its work after the gate is not.
  gated_process program({.argv = {"sh", "-c", "sleep 1.2; read line; sleep 0.1; echo done"}});
  std::this_thread::sleep_for(1500ms);
  const process_result end = program.open("go", 1000ms);
  EXPECT_FALSE(end.timed_out) << end.describe_end();
  EXPECT_EQ(end.stdout_text, "done\n");

  gated_process slow({.argv = {"sh", "-c", "read line; sleep 5"}});
  const process_result killed = slow.open("go", 300ms);
  EXPECT_TRUE(killed.timed_out);
  EXPECT_LT(killed.elapsed, 3s);
}

TEST(GatedProcess, AGateNeverOpenedEndsTheProgramWithoutItsWork) {
  const scratch_dir dir;
  const auto marker = dir.path() / "worked";
  {
    gated_process program({.argv = {"sh", "-c", "read line && touch \"$0\"", marker.string()}}, 2s);
    ASSERT_TRUE(program.started());
  }
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(std::filesystem::exists(marker));

  // One that ignores the end of its input is killed after the grace.
  const auto start = std::chrono::steady_clock::now();
  {
    gated_process stubborn({.argv = {"sh", "-c", "sleep 30"}}, 200ms);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(GatedProcess, AProgramThatEndedBeforeItsGateSaysHow) {
  gated_process program({.argv = {"sh", "-c", "exit 3"}});
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(program.waiting());
  const process_result end = program.open("go", 5s);
  EXPECT_EQ(end.exit_code, 3);
}

TEST(GatedProcess, IsNotAProcessANeighbourLeftRunning) {
  gated_process program({.argv = {"sh", "-c", "read line; echo \"$line\""}});
  // A measuring child's run ends every other child of kopt as left behind, but this one.
  const process_result neighbour = run_process({.argv = {"true"}, .ends_with_program = true});
  EXPECT_TRUE(neighbour.left_running.empty()) << neighbour.left_running.front();
  EXPECT_TRUE(program.waiting());
  EXPECT_EQ(program.open("still here", 5s).stdout_text, "still here\n");
}

TEST(GatedProcess, AMissingProgramIsNotStarted) {
  gated_process program({.argv = {"/nonexistent/tool"}});
  EXPECT_FALSE(program.started());
  EXPECT_NE(program.start_error().find("/nonexistent/tool"), std::string::npos);
  EXPECT_FALSE(program.open("go", 1s).started);
}

}  // namespace
}  // namespace kopt
