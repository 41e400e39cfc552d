// `kopt loop --agent CMD --agent-sandbox` on the CPU: a real agent process (a shell script)
// that does its work and also tries to change what the loop trusts. Under the sandbox its
// writes to the run's record, the memory and kopt's caches fail, while the kernel file, its
// proposal, the candidates folder and its own work folder stay writable; the loop goes on.
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/files.h"
#include "loop/agent_loop.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "scripted_services.h"
#include "support/kopt_process.h"
#include "support/sandboxed_child.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using testing::scripted_gpu;
using testing::softmax_version;

// Each attempt prints "<what>: written" or "<what>: refused".
constexpr const char* attempts =
    "try() { if sh -c \"$2\" 2>/dev/null; then echo \"$1: written\"; else echo \"$1: refused\"; fi; }\n"
    "try manifest \"echo '{}' > '$KOPT_RUN_DIR/run_manifest.json'\"\n"
    "try library \"echo x > '$KOPT_RUN_DIR/iter_v0/kernel_library.so'\"\n"
    "try new_file_in_run \"echo x > '$KOPT_RUN_DIR/planted.txt'\"\n"
    "try memory \"echo x >> '$MEMORY_DB'\"\n"
    "try work_folder \"echo notes > '$KOPT_AGENT_DIR/notes.txt'\"\n"
    "try temporary \"echo x > \\\"\\$TMPDIR/scratch\\\"\"\n"
    "try dev_null \"echo x > /dev/null\"\n";

class AgentSandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kopt::testing::landlock_here()) {
      GTEST_SKIP() << "this machine's Linux kernel applies no Landlock sandbox (missing or disabled): "
                      "--agent-sandbox cannot be shown here";
    }
    m_kernel = m_work.write("softmax.cu", softmax_version(1.0));
    m_work.write("versions/v1.cu", softmax_version(0.8, "// v1"));
    m_work.write("versions/v2.cu", softmax_version(0.7, "// v2"));
  }

  loop_settings settings() const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
    s.max_iterations = 2;
    s.memory_db = m_work.path() / "memory.db";
    return s;
  }

  agent_settings agent(const std::string& work) const {
    agent_settings a;
    a.command = "sh " + m_work.write("agent.sh", "#!/bin/sh\nMEMORY_DB='" + (m_work.path() / "memory.db").string() +
                                                     "'\n" + attempts + work)
                            .string();
    a.timeout = std::chrono::seconds(20);
    a.sandbox = true;
    return a;
  }

  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  scripted_gpu m_gpu;
};

TEST_F(AgentSandbox, TheAgentWritesItsVersionButNotTheRunsRecord) {
  const std::string work =
      "cp \"$(dirname \"$0\")/versions/v$KOPT_NEXT_ITERATION.cu\" \"$KOPT_KERNEL\" || exit 3\n"
      "echo \"- strategy_$KOPT_NEXT_ITERATION\" >> \"$KOPT_PROPOSAL\" || exit 4\n";
  const agent_loop_outcome out = run_agent_loop(settings(), agent(work), m_gpu.services());
  ASSERT_FALSE(out.failed) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);  // the record is kopt's, and whole
  ASSERT_EQ(m.iterations.size(), 3u);
  EXPECT_EQ(m.iterations[1].tags, std::vector<std::string>{"strategy_1"}) << "the proposal was writable";
  EXPECT_EQ(m.best, 2);
  for (std::int64_t i = 0; i < 2; ++i) {
    const std::string said = read_text_file(iteration_dir(out.last.run_dir, i) / "agent.stdout.txt");
    for (const char* refused : {"manifest: refused", "library: refused", "new_file_in_run: refused", "memory: refused"}) {
      EXPECT_NE(said.find(refused), std::string::npos) << "v" << i << ": " << said;
    }
    for (const char* written : {"work_folder: written", "temporary: written", "dev_null: written"}) {
      EXPECT_NE(said.find(written), std::string::npos) << "v" << i << ": " << said;
    }
  }
  EXPECT_FALSE(fs::exists(out.last.run_dir / "planted.txt"));
  EXPECT_EQ(read_text_file(out.last.run_dir / "agent" / "notes.txt"), "notes\n");
}

TEST_F(AgentSandbox, TheCandidatesFolderIsWritableInARound) {
  m_work.write("versions/v1/cand_1.cu", softmax_version(0.8, "// v1 c1"));
  m_work.write("versions/v1/cand_1.md", "## Strategy tags\n\n- retile_64\n");
  const std::string work = "cp \"$(dirname \"$0\")/versions/v$KOPT_NEXT_ITERATION/\"* \"$KOPT_CANDIDATES_DIR\" || exit 3\n";
  loop_settings s = settings();
  s.max_iterations = 1;
  agent_settings a = agent(work);
  a.candidates = 2;
  const agent_loop_outcome out = run_agent_loop(s, a, m_gpu.services());
  ASSERT_FALSE(out.failed) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);
  ASSERT_EQ(m.iterations.size(), 2u);
  ASSERT_EQ(m.iterations[1].candidates.size(), 1u);
  EXPECT_EQ(m.iterations[1].candidates[0].tags, std::vector<std::string>{"retile_64"});
}

// Without the sandbox the same agent can write the record (what the ledger then catches).
TEST_F(AgentSandbox, WithoutItTheSameWritesGoThrough) {
  const std::string work = "exit 5\n";
  agent_settings a = agent(work);
  a.sandbox = false;
  const agent_loop_outcome out = run_agent_loop(settings(), a, m_gpu.services());
  EXPECT_TRUE(out.failed);
  const std::string said = read_text_file(iteration_dir(out.last.run_dir, 0) / "agent.stdout.txt");
  EXPECT_NE(said.find("manifest: written"), std::string::npos) << said;
  EXPECT_NE(said.find("new_file_in_run: written"), std::string::npos) << said;
}

}  // namespace
}  // namespace kopt::loop
