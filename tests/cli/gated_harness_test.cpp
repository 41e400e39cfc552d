// `kopt harness --gated`, a measuring process started ahead. For a Python reference: dropped
// before its gate opens, it ends the Python runner it started and leaves nothing behind (a
// runner left running would be adopted by kopt and blamed on the next version). For a CUDA
// kernel: its writes are restricted before the gate, to the folders it was started for. Asked
// at its gate, a Python reference's process has its runner make the CUDA context once the runner
// is ready, holding the GPU's lock shared, and answers before it lets the lock go; while
// another kopt measures, it answers that it made none.
#include <chrono>
#include <filesystem>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/file_lock.h"
#include "core/gated_process.h"
#include "core/orphans.h"
#include "core/python.h"
#include "harness/bench_job.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
using namespace std::chrono_literals;
using testing::scratch_dir;

TEST(GatedHarness, DroppedUnopenedItEndsItsRunnerAndWritesNothing) {
  adopt_orphans();  // as kopt does before its measuring children: orphans become ours
  const scratch_dir dir;
  const auto runner = testing::source_dir() / "python" / "kopt_runner.py";
  const auto result = dir.path() / "result.json";
  {
    gated_process harness({.argv = {testing::kopt_binary().string(), "harness", "--gated", "--python",
                                    python_command(), "--runner", runner.string(), (dir.path() / "job.json").string(),
                                    result.string()}},
                          5s);
    ASSERT_TRUE(harness.started()) << harness.start_error();
    std::this_thread::sleep_for(500ms);  // the runner is importing torch
    EXPECT_TRUE(harness.waiting());
  }
  const std::vector<std::string> left = kill_adopted_orphans();
  EXPECT_TRUE(left.empty()) << left.front();
  EXPECT_FALSE(std::filesystem::exists(result));
}

TEST(GatedHarness, OpenedItReadsTheJobOnlyThen) {
  const scratch_dir dir;
  const auto job = dir.path() / "job.json";
  gated_process harness({.argv = {testing::kopt_binary().string(), "harness", "--gated", job.string(),
                                  (dir.path() / "result.json").string()}});
  std::this_thread::sleep_for(200ms);
  EXPECT_TRUE(harness.waiting());  // no job file yet, and it has not failed for want of one
  dir.write("job.json", "{not json");
  const process_result end = harness.open("go", 30s);
  EXPECT_EQ(end.exit_code, 2) << end.stderr_text;
  EXPECT_NE(testing::first_line(end.stderr_text).find("job.json"), std::string::npos) << end.stderr_text;
}

// A CUDA kernel's process started ahead restricts its writes before its gate (and makes its GPU
// context there, where there is a GPU): a job that then needs another folder is refused, naming
// it, before anything of the kernel is loaded.
TEST(GatedHarness, AKernelsProcessStartedAheadRefusesAJobNeedingOtherFolders) {
  const scratch_dir dir;
  const std::filesystem::path work = dir.path() / "work";
  std::filesystem::create_directories(work);
  const std::filesystem::path lock = dir.write("gpu.lock", "");
  gated_process harness({.argv = {testing::kopt_binary().string(), "harness", "--gated", "--writes", work.string(),
                                  "--gpu-lock", lock.string(), (work / "job.json").string(),
                                  (work / "result.json").string()}});
  std::this_thread::sleep_for(200ms);
  EXPECT_TRUE(harness.waiting());
  harness::bench_job job;
  job.kind = harness::job_kind::kernel;
  job.backend = "cuda";
  job.validation = harness::job_validation{(dir.path() / "elsewhere").string(), {}, 2, true};
  job.idle_peers = 0;
  dir.write("work/job.json", to_document(job).dump());
  const process_result end = harness.open("go", 30s);
  EXPECT_EQ(end.exit_code, 2) << end.stderr_text;
  EXPECT_NE(testing::first_line(end.stderr_text).find("elsewhere"), std::string::npos) << end.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(work / "result.json"));
}

// A stand-in for kopt's runner at its gate, speaking its protocol (python/kopt_runner.py,
// --gated): "ready"; then, asked for its context, it leaves `asked` and answers "context made"
// only if the GPU's lock is held (shared: an exclusive try fails, a shared one succeeds).
std::string gate_runner(const std::filesystem::path& lock, const std::filesystem::path& asked) {
  // Scratch folders' paths hold no quote.
  return fmt::format(R"(import fcntl, os, sys, time
os.write(0, b'ready\n')
line = sys.stdin.readline()
if line.strip() == '["context"]':
    open('{}', 'w').close()
    fd = os.open('{}', os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held = False
    except OSError:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        held = True
    os.close(fd)
    time.sleep(0.2)
    os.write(0, b'context made\n' if held else b'context not made: the lock was not held\n')
    sys.stdin.readline()
)",
                     asked.string(), lock.string());
}

struct reference_at_its_gate {
  scratch_dir dir;
  std::filesystem::path lock = dir.write("gpu.lock", "");
  std::filesystem::path asked = dir.path() / "asked";
  std::filesystem::path runner = dir.write("runner.py", gate_runner(lock, asked));

  gated_process start(const std::filesystem::path& runner_path) const {
    return gated_process(
        {.argv = {testing::kopt_binary().string(), "harness", "--gated", "--python", python_command(),
                  "--runner", runner_path.string(), "--gpu-lock", lock.string(),
                  (dir.path() / "job.json").string(), (dir.path() / "result.json").string()}},
        5s);
  }
};

TEST(GatedHarness, AskedForItsContextTheRunnerMakesItHoldingTheLockAndTheParentHearsFirst) {
  const reference_at_its_gate f;
  gated_process harness = f.start(f.runner);
  ASSERT_TRUE(harness.started()) << harness.start_error();
  ASSERT_TRUE(harness.say("context"));
  EXPECT_EQ(harness.hear(30s), std::optional<std::string>("context made"));
  // Heard before the lock is let go (so a measurement that has the lock knows), then let go.
  file_lock measuring(f.lock);
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!measuring.try_lock() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(5ms);
  EXPECT_TRUE(measuring.try_lock()) << "the lock is let go once the parent has its answer";
  EXPECT_TRUE(harness.waiting()) << "still at its gate";
}

TEST(GatedHarness, WhileAnotherKoptMeasuresTheRunnerIsNotAskedForItsContext) {
  const reference_at_its_gate f;
  file_lock measuring(f.lock);
  ASSERT_TRUE(measuring.try_lock());
  gated_process harness = f.start(f.runner);
  ASSERT_TRUE(harness.say("context"));
  EXPECT_EQ(harness.hear(30s),
            std::optional<std::string>("context not made: another kopt was measuring on the GPU"));
  EXPECT_FALSE(std::filesystem::exists(f.asked));
}

// kopt's own runner speaks the same protocol: on a machine without a GPU it says why it made none.
TEST(GatedHarness, KoptsRunnerAnswersTheContextRequestAfterLoadingTorch) {
  const reference_at_its_gate f;
  gated_process harness = f.start(testing::source_dir() / "python" / "kopt_runner.py");
  ASSERT_TRUE(harness.say("context"));
  const std::optional<std::string> answer = harness.hear(120s);
  ASSERT_TRUE(answer.has_value()) << "no answer within 120 s";
  EXPECT_TRUE(*answer == "context made" || *answer == "context not made: torch cannot use the GPU here")
      << *answer;
}

}  // namespace
}  // namespace kopt
