// Whole-program tests of the habits every command shares: --quiet leaves only the final result
// line, --json where a command writes something, and colour only on a terminal without
// NO_COLOR (a pseudo-terminal from `script` stands in for a person's).
#include <filesystem>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "scripted_run.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;
using testing::kopt_binary;
using testing::run_kopt;
using testing::scratch_dir;

TEST(TerminalHabits, QuietLeavesOnlyTheResultLine) {
  scratch_dir dir;
  for (const char* page : {"_raw.csv", "_details.csv"}) {
    fs::copy_file(fs::path(KOPT_TEST_DATA_DIR) / "ncu" / "h200" / (std::string("histogram") + page),
                  dir.path() / (std::string("histogram") + page));
  }
  const auto analyze = run_kopt({"analyze", (dir.path() / "histogram_raw.csv").string(), "--quiet"});
  ASSERT_EQ(analyze.exit_code, 0) << analyze.stderr_text;
  EXPECT_EQ(analyze.stdout_text,
            "wrote histogram_analysis.md and histogram_analysis.json in " + dir.path().string() + "\n");

  // Ready or not (this machine may have no GPU), the verdict is the one line.
  const auto preflight = run_kopt({"preflight", "--out", dir.path().string(), "-q"});
  EXPECT_TRUE(preflight.stdout_text == "ready\n" || preflight.stdout_text == "not ready\n") << preflight.stdout_text;

  const auto skills = run_kopt({"skills", "install", "--dir", (dir.path() / "skills").string(), "--quiet"});
  ASSERT_EQ(skills.exit_code, 0) << skills.stderr_text;
  EXPECT_EQ(skills.stdout_text.rfind("installed ", 0), 0u) << skills.stdout_text;
  EXPECT_EQ(skills.stdout_text.find('\n'), skills.stdout_text.size() - 1) << skills.stdout_text;
}

TEST(TerminalHabits, MemoryExportSaysWhatItWroteInJson) {
  scratch_dir dir;
  const std::string db = (dir.path() / "memory.db").string();
  const auto r = run_kopt({"memory", "export", (dir.path() / "out.json").string(), "--memory-db", db, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["schema"], "kopt.memory_export/v1");
  EXPECT_EQ(doc["outcomes"], 0);
  EXPECT_EQ(doc["file"], (dir.path() / "out.json").string());
}

// `script` gives kopt a pseudo-terminal as its standard output.
process_result on_a_terminal(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
  std::string command = "'" + kopt_binary().string() + "'";
  for (const auto& a : args) command += " '" + a + "'";
  process_request request;
  request.argv = {"script", "-q", "-e", "-c", command, "/dev/null"};
  request.extra_env = env;
  request.unset_env = {"NO_COLOR"};
  if (env.count("NO_COLOR") != 0) request.unset_env.clear();
  request.timeout = std::chrono::seconds(120);
  return run_process(request);
}

// The report's summary paints each iteration's outcome.
std::vector<std::string> report_of_the_fixture(const scratch_dir& dir) {
  return {"report", report::testing::fixture_run_dir().string(), "--html",
          (dir.path() / "report.html").string()};
}

TEST(TerminalHabits, ColourOnlyOnATerminalAndNeverWithNoColor) {
  scratch_dir dir;
  const std::vector<std::string> args = report_of_the_fixture(dir);
  ASSERT_FALSE(args.empty());
  const process_result tty = on_a_terminal(args, {});
  ASSERT_TRUE(tty.started) << tty.start_error;
  EXPECT_NE(tty.stdout_text.find("\033[1;32mpositive\033[0m"), std::string::npos) << tty.stdout_text;
  EXPECT_NE(tty.stdout_text.find("\033[1;31mrejected\033[0m"), std::string::npos) << tty.stdout_text;
  const process_result no_colour = on_a_terminal(args, {{"NO_COLOR", "1"}});
  EXPECT_NE(no_colour.stdout_text.find("positive"), std::string::npos) << no_colour.stdout_text;
  EXPECT_EQ(no_colour.stdout_text.find("\033["), std::string::npos) << no_colour.stdout_text;
  const auto piped = run_kopt(args);
  EXPECT_EQ(piped.stdout_text.find("\033["), std::string::npos) << piped.stdout_text;
}

// profile and compare say each long step as it begins, as bench and loop do: on a terminal only
// (here the steps before this GPU-less machine stops them).
TEST(TerminalHabits, ProfileAndCompareShowProgressOnATerminalOnly) {
  const std::string kernel = (testing::source_dir() / "examples" / "vector_add.cu").string();
  const std::map<std::string, std::string> no_gpu = {{"CUDA_VISIBLE_DEVICES", ""}};
  const std::vector<std::string> compare = {"compare", kernel, kernel, "--N=1024"};
  const process_result tty = on_a_terminal(compare, no_gpu);
  ASSERT_TRUE(tty.started) << tty.start_error;
  EXPECT_NE(tty.stdout_text.find("kopt compare: building vector_add.cu"), std::string::npos) << tty.stdout_text;
  const std::vector<std::string> profile = {"profile", kernel, "--N=1024"};
  const process_result profiled = on_a_terminal(profile, no_gpu);
  EXPECT_NE(profiled.stdout_text.find("kopt profile: preparation: "), std::string::npos) << profiled.stdout_text;
  for (const auto& args : {compare, profile}) {
    const auto piped = run_kopt(args, no_gpu);
    EXPECT_EQ(piped.stderr_text.find("kopt " + args[0] + ": "), std::string::npos) << piped.stderr_text;
    EXPECT_EQ(piped.stdout_text.find("kopt " + args[0] + ": "), std::string::npos) << piped.stdout_text;
  }
}

}  // namespace
}  // namespace kopt
