// Programs kopt talks with while they run: a request line out, the reply back on the same
// socket; a program that prints a lot meanwhile does not stall; one that dies or hangs gives
// no reply and finish() says how it ended.
#include "core/conversing_process.h"

#include <chrono>

#include <gtest/gtest.h>

namespace kopt {
namespace {
using namespace std::chrono_literals;

// Replies "got LINE" on its standard input (the socket) to every line, until its end.
const char* echo_script = "while read line; do echo \"got $line\" >&0; done; echo bye";

TEST(ConversingProcess, RepliesComeBackInOrderAndTheEndIsAProcessResult) {
  conversing_process program({.argv = {"sh", "-c", echo_script}});
  ASSERT_TRUE(program.started());
  EXPECT_EQ(program.ask("one", 1, 10s), std::optional<std::string>("got one\n"));
  EXPECT_EQ(program.ask("two", 1, 10s), std::optional<std::string>("got two\n"));
  const process_result end = program.finish(10s);
  EXPECT_TRUE(end.succeeded()) << end.describe_end();
  EXPECT_EQ(end.stdout_text, "bye\n");
}

TEST(ConversingProcess, AReplyOfSeveralLinesIsHandedOutWhole) {
  conversing_process program({.argv = {"sh", "-c", "read line; printf 'a\\nb\\nc\\n' >&0; read line"}});
  EXPECT_EQ(program.ask("go", 2, 10s), std::optional<std::string>("a\nb\n"));
  EXPECT_EQ(program.ask("more", 1, 10s), std::optional<std::string>("c\n"));
  EXPECT_TRUE(program.finish(10s).succeeded());
}

TEST(ConversingProcess, AProgramPrintingMoreThanAPipeHoldsStillReplies) {
  // 1 MiB on stdout before each reply: with nobody reading, it would block on a full pipe.
  conversing_process program(
      {.argv = {"sh", "-c",
                "while read line; do head -c 1048576 /dev/zero | tr '\\0' x; echo \"ok $line\" "
                ">&0; done"}});
  EXPECT_EQ(program.ask("1", 1, 20s), std::optional<std::string>("ok 1\n"));
  EXPECT_EQ(program.ask("2", 1, 20s), std::optional<std::string>("ok 2\n"));
  const process_result end = program.finish(10s);
  EXPECT_EQ(end.stdout_text.size(), 2u * 1048576u);
}

TEST(ConversingProcess, ADeadProgramGivesNoReplyAndItsEnd) {
  conversing_process program({.argv = {"sh", "-c", "read line; echo dying >&2; kill -SEGV $$"}});
  EXPECT_FALSE(program.ask("go", 1, 10s).has_value());
  const process_result end = program.finish(10s);
  EXPECT_EQ(end.term_signal, 11) << end.describe_end();
  EXPECT_EQ(end.stderr_text, "dying\n");
}

TEST(ConversingProcess, AHungProgramRunsOutOfTimeAndIsKilled) {
  conversing_process program({.argv = {"sh", "-c", "read line; sleep 30"}});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(program.ask("go", 1, 300ms).has_value());
  const process_result end = program.finish(300ms);
  EXPECT_TRUE(end.timed_out) << end.describe_end();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(ConversingProcess, AProgramThatCannotStartSaysWhy) {
  conversing_process program({.argv = {"/nonexistent/program"}});
  EXPECT_FALSE(program.started());
  EXPECT_FALSE(program.start_error().empty());
  EXPECT_FALSE(program.ask("go", 1, 1s).has_value());
}

}  // namespace
}  // namespace kopt
