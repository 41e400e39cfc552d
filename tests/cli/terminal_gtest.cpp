// The terminal helper: which words get which colour, and the NO_COLOR rule.
#include "cli/terminal.h"

#include <unistd.h>

#include <cstdlib>

#include <gtest/gtest.h>

namespace kopt::cli {
namespace {

TEST(Terminal, StatusWordsArePaintedByMeaningOnlyWhenColourIsOn) {
  EXPECT_EQ(paint_status("positive", false), "positive");
  EXPECT_EQ(paint_status("positive", true), "\033[1;32mpositive\033[0m");
  EXPECT_EQ(paint_status("rejected", true), "\033[1;31mrejected\033[0m");
  EXPECT_EQ(paint_status("FAIL", true), "\033[1;31mFAIL\033[0m");
  EXPECT_EQ(paint_status("neutral", true), "\033[1;33mneutral\033[0m");
  EXPECT_EQ(paint_status("softmax", true), "softmax");
}

TEST(Terminal, NoColorSetAtAllTurnsColourOff) {
  ::setenv("NO_COLOR", "", 1);
  EXPECT_FALSE(colour_allowed(stdout));
  ::unsetenv("NO_COLOR");
  // A test's standard output is a file or a pipe, never a terminal.
  EXPECT_FALSE(colour_allowed(stdout));
}

TEST(Terminal, ProgressLinesOnlyOnATerminalAndNeverWhenQuietOrJson) {
  EXPECT_FALSE(progress_on_terminal("bench", false)) << "--quiet or --json";
  // A test's standard error is a file or a pipe: an agent's log gets no progress lines.
  EXPECT_EQ(static_cast<bool>(progress_on_terminal("bench", true)), ::isatty(STDERR_FILENO) == 1);
}

TEST(Terminal, QuietAndVerboseAreFlagsOfTheCommand) {
  CLI::App app;
  verbosity level = verbosity::normal;
  add_verbosity_flags(app, level, true);
  app.parse(std::vector<std::string>{"--quiet"});
  EXPECT_EQ(level, verbosity::quiet);
  CLI::App other;
  verbosity level2 = verbosity::normal;
  add_verbosity_flags(other, level2, false);
  EXPECT_THROW(other.parse(std::vector<std::string>{"--verbose"}), CLI::ParseError);
  other.parse(std::vector<std::string>{"-q"});
  EXPECT_EQ(level2, verbosity::quiet);
}

}  // namespace
}  // namespace kopt::cli
