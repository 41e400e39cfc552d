// `kopt harness --gated`, a measuring process started ahead. For a Python reference: dropped
// before its gate opens, it ends the Python runner it started and leaves nothing behind (a
// runner left running would be adopted by kopt and blamed on the next version). For a CUDA
// kernel: its writes are restricted before the gate, to the folders it was started for.
#include <chrono>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

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
  job.role = "kernel";
  job.backend = "cuda";
  job.evidence_dir = (dir.path() / "elsewhere").string();
  dir.write("work/job.json", harness::to_json(job).dump());
  const process_result end = harness.open("go", 30s);
  EXPECT_EQ(end.exit_code, 2) << end.stderr_text;
  EXPECT_NE(testing::first_line(end.stderr_text).find("elsewhere"), std::string::npos) << end.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(work / "result.json"));
}

}  // namespace
}  // namespace kopt
