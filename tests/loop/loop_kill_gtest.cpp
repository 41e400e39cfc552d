// kill -9 at random points of a scripted run (an agent loop in its own process), each followed
// by a resume: the run folder and the memory end consistent every time, and the resumed run
// completes every iteration once; with rounds of candidates, a candidate committed before the
// kill is not measured again.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
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
std::string start_and_kill(const fs::path& work, int candidates, std::chrono::milliseconds delay) {
  int out[2];
  if (pipe(out) != 0) return "";
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    const std::string max = std::to_string(iterations);
    const std::string k = std::to_string(candidates);
    execl(driver().c_str(), driver().c_str(), work.c_str(), max.c_str(), k.c_str(),
          static_cast<char*>(nullptr));
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

// Every version the manifest committed, by (iteration, candidate): a single version is
// candidate "", a round's candidates "cand_J" (the memory's keys); an open round's too.
std::map<std::pair<std::int64_t, std::string>, const version_record*> committed_versions(
    const run_manifest& m) {
  std::map<std::pair<std::int64_t, std::string>, const version_record*> versions;
  const auto add = [&](const iteration_record& r) {
    if (r.candidates.empty()) versions[{r.iteration, ""}] = &r;
    for (const auto& c : r.candidates) {
      if (!c.finished_at.empty()) versions[{r.iteration, "cand_" + std::to_string(c.candidate)}] = &c;
    }
  };
  for (const auto& r : m.iterations) add(r);
  if (m.open_round) add(*m.open_round);
  return versions;
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
  const auto versions = committed_versions(m);
  for (const auto& [key, r] : versions) {
    EXPECT_TRUE(fs::exists(run_dir / r->snapshot)) << when << ": " << r->snapshot;
    if (!key.second.empty()) {
      EXPECT_TRUE(fs::exists(run_dir / fs::path(r->snapshot).parent_path() / "candidate_summary.md")) << when;
    }
  }
  if (m.best) {
    EXPECT_TRUE(m.find(*m.best)->eligible) << when;
  }
  if (!fs::exists(memory_db)) return;
  for (const auto& o : memory::memory_store::open(memory_db).all()) {
    const auto at = versions.find({o.iteration, o.candidate});
    ASSERT_NE(at, versions.end()) << when << ": the memory has v" << o.iteration << " " << o.candidate
                                  << ", the manifest does not";
    EXPECT_EQ(at->second->fingerprint, o.fingerprint) << when;
  }
}

// The run's strategy outcomes, as the memory must hold them: every tagged version after v0.
std::size_t tagged_outcomes(const run_manifest& m) {
  std::size_t n = 0;
  for (const auto& [key, r] : committed_versions(m)) {
    n += (!r->fingerprint.empty() && r->outcome != version_outcome::baseline) ? 1 : 0;
  }
  return n;
}

// The finish time of every candidate committed so far: a candidate measured again would get another.
std::map<std::pair<std::int64_t, int>, std::string> committed_candidates(const fs::path& run_dir) {
  std::map<std::pair<std::int64_t, int>, std::string> finished;
  if (!fs::exists(run_dir / run_manifest_name)) return finished;
  const run_manifest m = read_run_manifest(run_dir);
  const auto add = [&](const iteration_record& r) {
    for (const auto& c : r.candidates) {
      if (!c.finished_at.empty()) finished[{r.iteration, c.candidate}] = c.finished_at;
    }
  };
  for (const auto& r : m.iterations) add(r);
  if (m.open_round) add(*m.open_round);
  return finished;
}

void write_run_inputs(const fs::path& work) {
  write_file_atomic(work / "softmax.cu", testing::softmax_version(1.0));
  // Each version is a little faster than the last and names its strategy. With candidates: a
  // faster one, a slower one and one that fails the judge, each with its own tag.
  write_file_atomic(work / "agent.sh",
                    "#!/bin/sh\nset -e\n"
                    "n=$KOPT_NEXT_ITERATION\n"
                    "speed=$(awk \"BEGIN{print 1 - 0.1 * $n}\")\n"
                    "if [ -n \"$KOPT_CANDIDATES_DIR\" ]; then\n"
                    "  d=$KOPT_CANDIDATES_DIR\n"
                    "  { echo \"// speed: $speed\"; tail -n +2 \"$KOPT_BEST_VERSION\"; } > \"$d/cand_1.cu\"\n"
                    "  printf '## Strategy tags\\n- faster_%s\\n' $n > \"$d/cand_1.md\"\n"
                    "  { echo \"// speed: 1.5\"; tail -n +2 \"$KOPT_BEST_VERSION\"; } > \"$d/cand_2.cu\"\n"
                    "  printf '## Strategy tags\\n- slower_%s\\n' $n > \"$d/cand_2.md\"\n"
                    "  { echo \"// speed: 0.2\"; echo '// fails validation'; tail -n +2 "
                    "\"$KOPT_BEST_VERSION\"; } > \"$d/cand_3.cu\"\n"
                    "  printf '## Strategy tags\\n- broken_%s\\n' $n > \"$d/cand_3.md\"\n"
                    "  exit 0\n"
                    "fi\n"
                    "{ echo \"// speed: $speed\"; tail -n +2 \"$KOPT_KERNEL\"; } > \"$KOPT_KERNEL.new\"\n"
                    "mv \"$KOPT_KERNEL.new\" \"$KOPT_KERNEL\"\n"
                    "echo \"- faster_$KOPT_NEXT_ITERATION\" >> \"$KOPT_PROPOSAL\"\n");
}

process_result run_driver(const fs::path& work, int candidates, const std::string& run_dir) {
  process_request request;
  request.argv = {driver().string(), work.string(), std::to_string(iterations), std::to_string(candidates)};
  if (!run_dir.empty()) request.argv.push_back(run_dir);
  request.timeout = 120s;
  return run_process(request);
}

// Kills `points` runs at random times and resumes each; `candidates` per iteration.
void kill_and_resume(int candidates, int points, std::uint32_t seed) {
  // How long a whole run takes here: the kills fall anywhere inside it.
  kopt::testing::scratch_dir calibration;
  write_run_inputs(calibration.path());
  const process_result whole = run_driver(calibration.path(), candidates, "");
  ASSERT_TRUE(whole.succeeded()) << whole.describe_end() << "\n" << whole.stderr_text;
  const auto span_ms = static_cast<int>(whole.elapsed.count());

  std::mt19937 random(seed);
  int mid_round = 0;  // kills that left a round open with a committed candidate
  for (int point = 0; point < points; ++point) {
    kopt::testing::scratch_dir work;
    write_run_inputs(work.path());
    const auto delay = std::chrono::milliseconds(std::uniform_int_distribution<int>(0, span_ms)(random));
    const std::string run_dir = start_and_kill(work.path(), candidates, delay);
    ASSERT_FALSE(run_dir.empty());
    const std::string when = "killed after " + std::to_string(delay.count()) + " of " + std::to_string(span_ms) + " ms";
    expect_consistent(run_dir, work.path() / "memory.db", when);
    const bool was_complete = fs::exists(fs::path(run_dir) / run_manifest_name) &&
                              read_run_manifest(run_dir).iterations.size() == iterations + 1;
    const auto before = committed_candidates(run_dir);
    if (fs::exists(fs::path(run_dir) / run_manifest_name) && read_run_manifest(run_dir).open_round &&
        !committed_candidates(run_dir).empty()) {
      ++mid_round;
    }

    const process_result resumed = run_driver(work.path(), candidates, run_dir);
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
    EXPECT_FALSE(m.open_round) << when;
    EXPECT_EQ(memory::memory_store::open(work.path() / "memory.db").all().size(), tagged_outcomes(m))
        << when << ": every outcome once";
    const auto after = committed_candidates(run_dir);
    for (const auto& [key, finished_at] : before) {
      const auto at = after.find(key);
      ASSERT_NE(at, after.end()) << when;
      EXPECT_EQ(at->second, finished_at)
          << when << ": v" << key.first << " cand_" << key.second << " measured again";
    }
    if (candidates > 1) {
      for (std::size_t k = 1; k < m.iterations.size(); ++k) {
        EXPECT_EQ(m.iterations[k].candidates.size(), static_cast<std::size_t>(candidates)) << when;
      }
    }
  }
  // Most of a run with candidates is inside rounds: some kills must have landed in one.
  if (candidates > 1) {
    EXPECT_GT(mid_round, 0);
  }
}

TEST(LoopKill, KilledAtRandomPointsAndResumedTheRunEndsConsistentAndComplete) {
  kill_and_resume(1, kill_points, 20261201);
}

TEST(LoopKill, RoundsOfCandidatesKilledAtRandomPointsResumeWithoutMeasuringCommittedCandidatesAgain) {
  kill_and_resume(3, kill_points, 20261207);
}

}  // namespace
}  // namespace kopt::loop
