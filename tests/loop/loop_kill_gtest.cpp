// kill -9 at random points of a scripted run (an agent loop in its own process), each followed
// by a resume: the run folder and the memory end consistent every time, and the resumed run
// completes every iteration once.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/subprocess.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "memory/memory_store.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr int kill_points = 20;
constexpr int iterations = 4;

fs::path driver() { return fs::path(KOPT_LOOP_KILL_DRIVER); }

// Starts a new run in the driver and kills it with SIGKILL after `delay`; returns the run folder
// it printed.
std::string start_and_kill(const fs::path& work, std::chrono::milliseconds delay) {
  int out[2];
  if (pipe(out) != 0) return "";
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    const std::string max = std::to_string(iterations);
    execl(driver().c_str(), driver().c_str(), work.c_str(), max.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  std::string printed;
  char c;
  while (read(out[0], &c, 1) == 1 && c != '\n') printed += c;  // the run folder comes first
  std::this_thread::sleep_for(delay);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  close(out[0]);
  // An agent the driver had started runs in its own process group and outlives it, as after a
  // real kill -9; it takes milliseconds, so let it end before the resume reads the kernel.
  std::this_thread::sleep_for(300ms);
  return printed;
}

// Everything the manifest lists is there, and the memory holds nothing the manifest does not
// (it is told after the commit, so it may lag by the last outcome, which the next call replays).
void expect_consistent(const fs::path& run_dir, const fs::path& memory_db, const std::string& when) {
  if (!fs::exists(run_dir / run_manifest_name)) return;  // killed before v0 was committed
  const run_manifest m = read_run_manifest(run_dir);  // throws if half-written or edited
  for (std::size_t k = 0; k < m.iterations.size(); ++k) {
    const iteration_record& r = m.iterations[k];
    EXPECT_EQ(r.iteration, static_cast<std::int64_t>(k)) << when;
    EXPECT_TRUE(fs::exists(run_dir / r.snapshot)) << when;
    EXPECT_TRUE(fs::exists(iteration_dir(run_dir, r.iteration) / "optimization_proposal.md")) << when;
  }
  if (m.best) {
    EXPECT_TRUE(m.find(*m.best)->eligible) << when;
  }
  if (!fs::exists(memory_db)) return;
  for (const auto& o : memory::memory_store::open(memory_db).all()) {
    const iteration_record* r = m.find(o.iteration);
    ASSERT_NE(r, nullptr) << when << ": the memory has v" << o.iteration << ", the manifest does not";
    EXPECT_EQ(r->fingerprint, o.fingerprint) << when;
  }
}

// The run's strategy outcomes, as the memory must hold them: every tagged iteration after v0.
std::size_t tagged_outcomes(const run_manifest& m) {
  std::size_t n = 0;
  for (const auto& r : m.iterations) n += (!r.fingerprint.empty() && r.outcome != "baseline") ? 1 : 0;
  return n;
}

void write_run_inputs(const fs::path& work) {
  write_file_atomic(work / "softmax.cu", testing::softmax_version(1.0));
  // Each version is a little faster than the last and names its strategy.
  write_file_atomic(work / "agent.sh",
                    "#!/bin/sh\nset -e\n"
                    "speed=$(awk \"BEGIN{print 1 - 0.1 * $KOPT_NEXT_ITERATION}\")\n"
                    "{ echo \"// speed: $speed\"; tail -n +2 \"$KOPT_KERNEL\"; } > \"$KOPT_KERNEL.new\"\n"
                    "mv \"$KOPT_KERNEL.new\" \"$KOPT_KERNEL\"\n"
                    "echo \"- faster_$KOPT_NEXT_ITERATION\" >> \"$KOPT_PROPOSAL\"\n");
}

process_result run_driver(const fs::path& work, const std::string& run_dir) {
  process_request request;
  request.argv = {driver().string(), work.string(), std::to_string(iterations)};
  if (!run_dir.empty()) request.argv.push_back(run_dir);
  request.timeout = 120s;
  return run_process(request);
}

TEST(LoopKill, KilledAtRandomPointsAndResumedTheRunEndsConsistentAndComplete) {
  // How long a whole run takes here: the kills fall anywhere inside it.
  kopt::testing::scratch_dir calibration;
  write_run_inputs(calibration.path());
  const process_result whole = run_driver(calibration.path(), "");
  ASSERT_TRUE(whole.succeeded()) << whole.describe_end() << "\n" << whole.stderr_text;
  const auto span_ms = static_cast<int>(whole.elapsed.count());

  std::mt19937 random(20261201);
  for (int point = 0; point < kill_points; ++point) {
    kopt::testing::scratch_dir work;
    write_run_inputs(work.path());
    const auto delay = std::chrono::milliseconds(std::uniform_int_distribution<int>(0, span_ms)(random));
    const std::string run_dir = start_and_kill(work.path(), delay);
    ASSERT_FALSE(run_dir.empty());
    const std::string when = "killed after " + std::to_string(delay.count()) + " of " + std::to_string(span_ms) + " ms";
    expect_consistent(run_dir, work.path() / "memory.db", when);
    const bool was_complete = fs::exists(fs::path(run_dir) / run_manifest_name) &&
                              read_run_manifest(run_dir).iterations.size() == iterations + 1;

    const process_result resumed = run_driver(work.path(), run_dir);
    if (was_complete) {
      // Nothing is left to run; the call still replays what the memory missed, then says so.
      EXPECT_EQ(resumed.exit_code, 2) << when;
      EXPECT_NE(resumed.stderr_text.find("done all its iterations"), std::string::npos) << when << resumed.stderr_text;
    } else {
      ASSERT_TRUE(resumed.succeeded()) << when << ": " << resumed.describe_end() << "\n" << resumed.stderr_text;
    }
    expect_consistent(run_dir, work.path() / "memory.db", when + ", then resumed");
    const run_manifest m = read_run_manifest(run_dir);
    EXPECT_EQ(m.iterations.size(), static_cast<std::size_t>(iterations + 1)) << when;
    EXPECT_EQ(memory::memory_store::open(work.path() / "memory.db").all().size(), tagged_outcomes(m))
        << when << ": every outcome once";
  }
}

}  // namespace
}  // namespace kopt::loop
