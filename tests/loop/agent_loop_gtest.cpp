// `kopt loop --agent CMD` on the CPU: a real agent process (a shell script standing in for a
// coding agent) writes prepared versions; measurements are scripted. The loop runs to its end
// or stops by its rules, and a failing, hung or silent agent ends it cleanly.
#include "loop/agent_loop.h"

#include <signal.h>

#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/document.h"

#include "core/error.h"
#include "core/files.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using testing::scripted_gpu;
using testing::softmax_version;

class AgentLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    m_kernel = m_work.write("softmax.cu", softmax_version(1.0));
    fs::create_directories(m_work.path() / "versions");
    // The agent: takes the prepared next version and names its strategy in the proposal.
    m_agent = m_work.write("agent.sh",
                           "#!/bin/sh\n"
                           "echo \"writing v$KOPT_NEXT_ITERATION from $KOPT_BEST_VERSION after $KOPT_ANALYSIS\"\n"
                           "cp \"$(dirname \"$0\")/versions/v$KOPT_NEXT_ITERATION.cu\" \"$KOPT_KERNEL\" || exit 3\n"
                           "echo \"- strategy_$KOPT_NEXT_ITERATION\" >> \"$KOPT_PROPOSAL\"\n");
  }

  void prepare(std::int64_t iteration, double speed) {
    m_work.write(fmt::format("versions/v{}.cu", iteration), softmax_version(speed, fmt::format("// v{}", iteration)));
  }

  loop_settings settings(std::int64_t max_iterations) const {
    loop_settings s;
    s.target.kernel = m_kernel;
    s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
    s.max_iterations = max_iterations;
    s.memory_db = m_work.path() / "memory.db";
    return s;
  }

  agent_settings agent(const std::string& script_body = "") const {
    agent_settings a;
    a.command = "sh " + (script_body.empty() ? m_agent : m_work.write("other_agent.sh", script_body)).string();
    a.timeout = std::chrono::seconds(20);
    return a;
  }

  kopt::testing::scratch_dir m_work;
  fs::path m_kernel;
  fs::path m_agent;
  scripted_gpu m_gpu;
};

TEST_F(AgentLoop, RunsTheAgentBetweenIterationsUntilTheLastOne) {
  prepare(1, 0.8);
  prepare(2, 0.7);
  prepare(3, 0.9);
  const agent_loop_outcome out = run_agent_loop(settings(3), agent(), m_gpu.services());
  EXPECT_FALSE(out.failed) << out.stop_reason;
  EXPECT_NE(out.stop_reason.find("--max-iterations"), std::string::npos) << out.stop_reason;
  const run_manifest m = read_run_manifest(out.last.run_dir);
  ASSERT_EQ(m.iterations.size(), 4u);
  EXPECT_EQ(enum_name(m.iterations[1].outcome), "positive");
  EXPECT_EQ(m.iterations[1].tags, std::vector<std::string>{"strategy_1"});
  EXPECT_EQ(enum_name(m.iterations[2].outcome), "positive");
  EXPECT_EQ(enum_name(m.iterations[3].outcome), "negative");
  EXPECT_EQ(m.best, 2);
  const std::string said = read_text_file(iteration_dir(out.last.run_dir, 1) / "agent.stdout.txt");
  EXPECT_NE(said.find("writing v2 from " + (out.last.run_dir / "iter_v1" / "softmax_v1.cu").string()),
            std::string::npos)
      << said;
}

TEST_F(AgentLoop, WhatTheAgentLeavesRunningIsEndedBeforeTheNextMeasurement) {
  prepare(1, 0.8);
  // The agent does its work and leaves a detached process behind (a server, a warm kopt worker).
  const fs::path pid_file = m_work.path() / "left.pid";
  const std::string body = read_text_file(m_agent) + "setsid sleep 60 >/dev/null 2>&1 </dev/null &\necho $! > " +
                           pid_file.string() + "\n";
  const agent_loop_outcome out = run_agent_loop(settings(1), agent(body), m_gpu.services());
  EXPECT_FALSE(out.failed) << out.stop_reason;
  const pid_t left = static_cast<pid_t>(std::stol(read_text_file(pid_file)));
  EXPECT_NE(::kill(left, 0), 0) << "the agent's process still runs";
  const std::string told = read_text_file(iteration_dir(out.last.run_dir, 0) / "agent.stderr.txt");
  EXPECT_NE(told.find("the agent left process " + std::to_string(left)), std::string::npos) << told;
}

TEST_F(AgentLoop, AFailingAgentEndsTheLoopWithTheRunConsistent) {
  const agent_loop_outcome out = run_agent_loop(settings(3), agent(), m_gpu.services());  // no prepared version
  EXPECT_TRUE(out.failed);
  EXPECT_NE(out.stop_reason.find("the agent failed (exit code 3)"), std::string::npos) << out.stop_reason;
  EXPECT_EQ(read_run_manifest(out.last.run_dir).iterations.size(), 1u);
}

TEST_F(AgentLoop, ASilentAgentEndsTheLoop) {
  const agent_loop_outcome out = run_agent_loop(settings(3), agent("#!/bin/sh\necho thinking\n"), m_gpu.services());
  EXPECT_TRUE(out.failed);
  EXPECT_NE(out.stop_reason.find("wrote no new version"), std::string::npos) << out.stop_reason;
}

TEST_F(AgentLoop, AHungAgentIsStoppedAtItsTimeLimit) {
  agent_settings hung = agent("#!/bin/sh\nsleep 30\n");
  hung.timeout = std::chrono::seconds(1);
  const agent_loop_outcome out = run_agent_loop(settings(3), hung, m_gpu.services());
  EXPECT_TRUE(out.failed);
  EXPECT_NE(out.stop_reason.find("did not finish within --agent-timeout (1 s)"), std::string::npos) << out.stop_reason;
}

TEST_F(AgentLoop, StopsWhenNothingImprovesForPatienceIterations) {
  prepare(1, 1.0);
  prepare(2, 1.01);
  prepare(3, 0.5);
  agent_settings a = agent();
  a.patience = 2;
  const agent_loop_outcome out = run_agent_loop(settings(5), a, m_gpu.services());
  EXPECT_FALSE(out.failed);
  EXPECT_NE(out.stop_reason.find("no new best in 2 iterations"), std::string::npos) << out.stop_reason;
  EXPECT_EQ(read_run_manifest(out.last.run_dir).iterations.size(), 3u);
}

TEST_F(AgentLoop, StopsAtTheTargetSpeedup) {
  loop_settings s = settings(3);
  fs::copy_file(kopt::testing::source_dir() / "examples" / "softmax_ref.py", m_work.path() / "softmax_ref.py");
  s.target.ref = m_work.path() / "softmax_ref.py";
  agent_settings a = agent();
  a.target_speedup = 1.1;  // the scripted baseline is 1.2x the reference
  const agent_loop_outcome out = run_agent_loop(s, a, m_gpu.services());
  EXPECT_NE(out.stop_reason.find("--target-speedup"), std::string::npos) << out.stop_reason;
  EXPECT_EQ(read_run_manifest(out.last.run_dir).iterations.size(), 1u);
}

TEST_F(AgentLoop, ACommandThatNeedsAShellIsRefusedBeforeAnyWork) {
  agent_settings a = agent();
  a.command = "claude -p 'optimize' | tee log";
  EXPECT_THROW(run_agent_loop(settings(3), a, m_gpu.services()), error);
  EXPECT_EQ(m_gpu.bench_calls, 0);
}

}  // namespace
}  // namespace kopt::loop
