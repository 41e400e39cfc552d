// Processes kept warm across commands, on the CPU with the real Python runner (a Triton problem
// step's process: the runner at its gate with torch and Triton loaded, writes restricted to a
// folder of its own). One waits per kind of job; its folder is what the problem step must use;
// taking it starts a successor with a folder of its own; a job naming another folder, or a
// problem whose setup() is another side's, is not given it; nothing is kept until enabled.
#include "pipeline/warm_processes.h"

#include <chrono>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "core/python.h"
#include "support/kopt_process.h"

namespace kopt::pipeline {
namespace {
namespace fs = std::filesystem;

harness::bench_job problem_job(const std::string& owner) {
  harness::bench_job job;
  job.kind = harness::job_kind::problem;
  job.validation = harness::job_validation{"", {}, 2, false};
  job.backend = "triton";
  job.python = python_command();
  job.python_runner = (kopt::testing::source_dir() / "python" / "kopt_runner.py").string();
  job.problem_owner = owner;
  return job;
}

env::gpu_device device() {
  env::gpu_device d;
  d.uuid = "GPU-00000000-0000-0000-0000-000000000000";
  return d;
}

TEST(WarmProcesses, NothingIsKeptUntilEnabled) {
  warm_processes warm;
  warm.keep_one_for(problem_job("reference"), device());
  EXPECT_EQ(warm.waiting(), 0u);
  EXPECT_EQ(warm.problem_folder_for(problem_job("reference"), device()), nullptr);
}

TEST(WarmProcesses, AProblemStepsProcessWaitsWithAFolderOfItsOwnAndIsTakenOnce) {
  warm_processes warm;
  warm.enable();
  harness::bench_job job = problem_job("reference");
  warm.keep_one_for(job, device());
  warm.keep_one_for(job, device());
  EXPECT_EQ(warm.waiting(), 1u) << "one per kind of job";
  const std::shared_ptr<const private_folder> folder = warm.problem_folder_for(job, device());
  ASSERT_NE(folder, nullptr);
  EXPECT_TRUE(fs::is_directory(folder->path()));
  EXPECT_EQ(warm.problem_folder_for(problem_job("kernel"), device()), nullptr)
      << "the kernel's setup() runs in another environment than the reference's";

  job.validation->evidence_dir = (folder->path().parent_path() / "elsewhere").string();
  EXPECT_FALSE(warm.take_for({}, job, device())) << "its process may write only in its own folder";
  job.validation->evidence_dir = folder->path().string();
  EXPECT_FALSE(warm.take_for({"ncu"}, job, device())) << "a wrapped job starts its own process";
  std::optional<prestarted_child> taken = warm.take_for({}, job, device());
  ASSERT_TRUE(taken);
  EXPECT_EQ(harness::evidence_dir_of(taken->job), folder->path().string());
  EXPECT_TRUE(taken->process->waiting());
  // Its successor waits for the next command, with a folder of its own.
  EXPECT_EQ(warm.waiting(), 1u);
  const std::shared_ptr<const private_folder> next = warm.problem_folder_for(job, device());
  ASSERT_NE(next, nullptr);
  EXPECT_NE(next->path(), folder->path());
  EXPECT_FALSE(warm.take_for({}, job, device())) << "each process is used once";
}

}  // namespace
}  // namespace kopt::pipeline
