// Whole-program tests of `kopt completion`: the bash script, run in bash, offers every command
// of the command table and the options each command declares; the zsh script names the same.
#include <gtest/gtest.h>

#include "cli/command.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "support/kopt_process.h"

namespace kopt::cli {
namespace {

using testing::run_kopt;
using testing::scratch_dir;

// The commands a user sees, or kopt's own internal ones.
std::vector<std::string> commands_of_the_table(bool internal) {
  std::vector<std::string> names;
  for (const auto& entry : command_table()) {
    if (entry.internal == internal) names.push_back(entry.name);
  }
  return names;
}

std::vector<std::string> user_commands() { return commands_of_the_table(false); }

const std::vector<std::string> internal_commands = commands_of_the_table(true);

class BashCompletion : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto r = run_kopt({"completion", "bash"});
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    m_script = m_dir.write("kopt.bash", r.stdout_text);
  }

  // What bash offers after `line` (the word being completed is the last, maybe empty).
  std::vector<std::string> offered(const std::vector<std::string>& words) const {
    std::string array;
    for (const auto& w : words) array += " '" + w + "'";
    const std::string program = "source '" + m_script.string() + "'\nCOMP_WORDS=(" + array +
                                ")\nCOMP_CWORD=" + std::to_string(words.size() - 1) +
                                "\n_kopt\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
    process_request request;
    request.argv = {"bash", "--norc", "--noprofile", "-c", program};
    const process_result r = run_process(request);
    EXPECT_TRUE(r.succeeded()) << r.describe_end() << r.stderr_text;
    std::vector<std::string> list;
    std::size_t start = 0;
    for (std::size_t end = r.stdout_text.find('\n'); end != std::string::npos; end = r.stdout_text.find('\n', start)) {
      if (end > start) list.push_back(r.stdout_text.substr(start, end - start));
      start = end + 1;
    }
    return list;
  }

  static bool has(const std::vector<std::string>& list, const std::string& word) {
    return std::find(list.begin(), list.end(), word) != list.end();
  }

  scratch_dir m_dir;
  std::filesystem::path m_script;
};

TEST_F(BashCompletion, OffersEveryCommandOfTheTableAndNoHiddenOne) {
  const auto commands = offered({"kopt", ""});
  const auto expected = user_commands();
  ASSERT_GE(expected.size(), 13u);
  for (const auto& name : expected) EXPECT_TRUE(has(commands, name)) << name;
  ASSERT_EQ(internal_commands, (std::vector<std::string>{"harness", "text-pages"}));
  for (const auto& name : internal_commands) EXPECT_FALSE(has(commands, name)) << name;
  EXPECT_EQ(offered({"kopt", "be"}), std::vector<std::string>{"bench"});
  EXPECT_EQ(offered({"kopt", "re"}), std::vector<std::string>{"report"});
}

TEST_F(BashCompletion, OffersTheOptionsOfBench) {
  const auto options = offered({"kopt", "bench", "kernel.cu", "--"});
  for (const char* flag : {"--ref", "--warmup", "--repeat", "--hot", "--json", "--json-out", "--sanitize", "--quiet",
                           "--verbose", "--atol", "--rtol"}) {
    EXPECT_TRUE(has(options, flag)) << flag;
  }
  EXPECT_FALSE(has(options, "--max-iterations")) << "a loop option offered for bench";
  EXPECT_EQ(offered({"kopt", "bench", "--war"}), std::vector<std::string>{"--warmup"});
}

TEST_F(BashCompletion, OffersActionsThenTheirOptions) {
  EXPECT_EQ(offered({"kopt", "kb", ""}), (std::vector<std::string>{"list", "show", "match"}));
  EXPECT_EQ(offered({"kopt", "completion", ""}), (std::vector<std::string>{"bash", "zsh"}));
  const auto list_options = offered({"kopt", "memory", "list", "--"});
  EXPECT_TRUE(has(list_options, "--json"));
  EXPECT_TRUE(has(list_options, "--memory-db")) << "the memory's option, accepted after the action";
  const auto report = offered({"kopt", "report", "run", "--"});
  for (const char* flag : {"--html", "--out", "--json", "--quiet", "--verbose"}) EXPECT_TRUE(has(report, flag)) << flag;
}

TEST(ZshCompletion, NamesEveryCommandAndTheOptionsOfBench) {
  const auto r = run_kopt({"completion", "zsh"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string& script = r.stdout_text;
  EXPECT_EQ(script.rfind("#compdef kopt\n", 0), 0u);
  for (const auto& name : user_commands()) EXPECT_NE(script.find("    '" + name + ":"), std::string::npos) << name;
  for (const auto& name : internal_commands) EXPECT_EQ(script.find("'" + name + ":"), std::string::npos) << name;
  EXPECT_NE(script.find("'--warmup["), std::string::npos);
  EXPECT_NE(script.find("'--hot[no L2 flush before each sample (default - flush by reading)"), std::string::npos)
      << "a description with its colon and brackets made safe";
  EXPECT_NE(script.find("    kb) actions=('list:"), std::string::npos);
}

}  // namespace
}  // namespace kopt::cli
