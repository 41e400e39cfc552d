// kopt's Python runner started ahead (`kopt_runner.py --gated`): it loads what it was told to,
// then runs the one command its go line names, or leaves quietly when kopt closes the gate.
#include <chrono>

#include <gtest/gtest.h>

#include "core/gated_process.h"
#include "core/python.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
using namespace std::chrono_literals;
using testing::scratch_dir;

std::vector<std::string> gated_runner(std::vector<std::string> args) {
  std::vector<std::string> argv = {python_command(), (testing::source_dir() / "python" / "kopt_runner.py").string(),
                                   "--gated"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

TEST(GatedRunner, RunsTheCommandOfItsGoLine) {
  const scratch_dir dir;
  const auto module = dir.write("ref.py", "def reference(**kwargs):\n    pass\n");
  gated_process runner({.argv = gated_runner({"json"})});
  const process_result end = runner.open(R"(["check-reference", ")" + module.string() + R"("])", 60s);
  EXPECT_TRUE(end.succeeded()) << end.describe_end() << end.stderr_text;

  const auto no_reference = dir.write("empty.py", "x = 1\n");
  gated_process second({.argv = gated_runner({})});
  const process_result refused = second.open(R"(["check-reference", ")" + no_reference.string() + R"("])", 60s);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(testing::first_line(refused.stderr_text).find("defines no reference()"), std::string::npos)
      << refused.stderr_text;
}

TEST(GatedRunner, AGoLineThatIsNoCommandIsRefused) {
  gated_process runner({.argv = gated_runner({})});
  const process_result end = runner.open(R"({"check-reference": 1})", 60s);
  EXPECT_EQ(end.exit_code, 1);
  EXPECT_NE(end.stderr_text.find("not a JSON array of strings"), std::string::npos) << end.stderr_text;
}

TEST(GatedRunner, ClosedWithoutAGoLineItLeavesDoingNothing) {
  const scratch_dir dir;
  {
    // Given time to leave by itself: it must, without running anything.
    gated_process runner({.argv = gated_runner({"--writes", (dir.path() / "made").string(), "json"})}, 30s);
    ASSERT_TRUE(runner.started());
  }
  // The folders it may write to are made before the sandbox allows them; nothing else is.
  EXPECT_TRUE(std::filesystem::is_directory(dir.path() / "made"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

}  // namespace
}  // namespace kopt
