// The profile pipeline on the CPU through a recorded worker: what it asks the worker to run
// under ncu, and how it judges captures that went wrong. A stand-in ncu that only states its
// version is enough: the worker never runs it.
#include "pipeline/profile_pipeline.h"

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "harness/child_report.h"

#include "core/error.h"
#include "pipeline/recorded_worker.h"
#include "support/recorded_h200.h"
#include "support/kopt_process.h"

namespace kopt::pipeline {
namespace {
namespace fs = std::filesystem;

class ProfilePipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("KOPT_CACHE_DIR", m_cache.path().c_str(), 1);
    m_ncu = m_tools.write("ncu", "#!/bin/sh\necho 'NVIDIA (R) Nsight Compute Command Line Profiler'\n"
                                 "echo 'Version 2025.3.1.0 (build 36398880) (public-release)'\n");
    fs::permissions(m_ncu, fs::perms::owner_all);
  }

  profile_request vector_add() const {
    profile_request request;
    request.target.kernel = testing::source_dir() / "examples" / "vector_add.cu";
    request.target.dims = {{"N", "1048576"}};
    request.target.command_name = "kopt profile";
    request.target.gpu_purpose = "profile on";
    request.out = m_out.path() / "profile";
    request.ncu_bin = m_ncu.string();
    return request;
  }

  testing::scratch_dir m_cache;
  testing::scratch_dir m_tools;
  testing::scratch_dir m_out;
  fs::path m_ncu;
};

TEST_F(ProfilePipeline, AWindowWithNoKernelIsNothingCapturedAndPublishesNothing) {
  wrapped_child_run child;
  child.process.started = true;
  child.process.exit_code = 0;
  child.process.stdout_text = "==PROF== Connected to process 4242\n==WARNING== No kernels were profiled.\n";
  child.result = to_document(harness::report_of(harness::run_status::ok));
  recorded_worker worker(recorded_h200(), child);
  std::string announced;
  const profile_outcome outcome =
      run_profile(vector_add(), worker, [&](const std::string& command) { announced = command; });

  ASSERT_EQ(worker.runs().size(), 1u);
  const recorded_run& run = worker.runs().front();
  EXPECT_EQ(run.wrapper.front(), m_ncu.string());
  EXPECT_EQ(run.job.kind, kopt::harness::job_kind::profile);
  EXPECT_EQ(run.job.profile_calls, 1);
  EXPECT_NE(announced.find(m_ncu.string()), std::string::npos);
  ASSERT_TRUE(outcome.failure.has_value());
  EXPECT_EQ(outcome.status, exit_status::kernel_failed);
  EXPECT_EQ(outcome.document["status"], "nothing_captured");
  EXPECT_FALSE(fs::exists(m_out.path() / "profile" / "profile.json"));
}

TEST_F(ProfilePipeline, AKernelThatCrashesUnderNcuIsTheKernelsFailure) {
  wrapped_child_run child;
  child.process.started = true;
  child.process.exit_code = 1;
  child.process.stdout_text = "==PROF== Connected to process 4242\n";
  child.result = to_document(harness::report_of(harness::run_status::crashed,
                                                "the kernel failed on the device: CUDA_ERROR_ILLEGAL_ADDRESS"));
  recorded_worker worker(recorded_h200(), child);
  const profile_outcome outcome = run_profile(vector_add(), worker);
  ASSERT_TRUE(outcome.failure.has_value());
  EXPECT_EQ(outcome.document["status"], "failed");
  EXPECT_NE(outcome.failure->headline.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << outcome.failure->headline;
}

TEST_F(ProfilePipeline, CounterPermissionIsAnEnvironmentError) {
  wrapped_child_run child;
  child.process.started = true;
  child.process.exit_code = 1;
  child.process.stdout_text =
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters\n";
  recorded_worker worker(recorded_h200(), child);
  EXPECT_THROW(run_profile(vector_add(), worker), error);
}

TEST_F(ProfilePipeline, ProfileCallsBelowOneAreRefusedBeforeAnyBuild) {
  recorded_worker worker(recorded_h200(), wrapped_child_run{});
  profile_request request = vector_add();
  request.profile_calls = 0;
  EXPECT_THROW(run_profile(request, worker), error);
  EXPECT_TRUE(worker.runs().empty());
}

}  // namespace
}  // namespace kopt::pipeline
