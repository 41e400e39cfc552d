// The bench pipeline end to end on the CPU: real planning, real nvcc builds of the example
// kernel and its reference, and a recorded measuring worker where the GPU child would run.
#include "pipeline/bench_pipeline.h"

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/json_io.h"
#include "support/kopt_process.h"
#include "pipeline/recorded_worker.h"
#include "recorded_h200.h"

namespace kopt::pipeline {
namespace {
namespace fs = std::filesystem;

wrapped_child_run child_that_wrote(const json& result) {
  wrapped_child_run run;
  run.process.started = true;
  run.process.exit_code = 0;
  run.result = result;
  return run;
}

class BenchPipeline : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("KOPT_CACHE_DIR", m_cache.path().c_str(), 1); }

  bench_request vector_add(const fs::path& kernel) const {
    bench_request request;
    request.target.kernel = kernel;
    request.target.ref = testing::source_dir() / "examples" / "vector_add_ref.cu";
    request.target.dims = {{"N", "1048576"}};
    return request;
  }

  static fs::path example(const char* name) { return testing::source_dir() / "examples" / name; }

  testing::scratch_dir m_cache;
};

TEST_F(BenchPipeline, BuildsBothSidesAndHandsTheChildACompleteJob) {
  recorded_worker worker(recorded_h200(), child_that_wrote(read_json_file(
                                              testing::source_dir() / "tests/data/pipeline/child_result_ok.json")));
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);

  ASSERT_EQ(worker.runs().size(), 1u);
  const recorded_run& run = worker.runs().front();
  EXPECT_TRUE(run.wrapper.empty());
  EXPECT_EQ(run.device.name, "NVIDIA H200");
  EXPECT_EQ(run.timeout_s, 600);
  EXPECT_EQ(run.job.backend, "cuda");
  EXPECT_TRUE(fs::exists(run.job.kernel_library)) << run.job.kernel_library;
  EXPECT_TRUE(fs::exists(run.job.reference_library)) << run.job.reference_library;
  ASSERT_EQ(run.job.dims.size(), 1u);
  EXPECT_EQ(run.job.dims[0].name, "N");

  EXPECT_EQ(outcome.status, exit_status::ok);
  const json& document = outcome.document;
  EXPECT_EQ(document["schema"], "kopt.benchmark_result/v1");
  EXPECT_EQ(document["status"], "ok");
  EXPECT_EQ(document["gpu_name"], "NVIDIA H200");
  EXPECT_EQ(document["arch"], "sm_90a");
  EXPECT_EQ(document["driver_cuda_version"], "13.0");
  EXPECT_NE(document["signature"].get<std::string>().find("void solve("), std::string::npos);
  EXPECT_NE(document["nvcc_command"][0].get<std::string>().find("nvcc"), std::string::npos);
  EXPECT_DOUBLE_EQ(document["kernel"]["median_ms"].get<double>(), 0.06122);
}

TEST_F(BenchPipeline, ASanitizerPassRunsTheKernelAloneUnderTheTool) {
  // The pass looks compute-sanitizer up on PATH; a stand-in that only states its version is
  // enough, as the recorded worker never runs it.
  testing::scratch_dir tools;
  const fs::path fake = tools.write("compute-sanitizer", "#!/bin/sh\necho 'NVIDIA (R) Compute Sanitizer Version 2025.3.1.0'\n");
  fs::permissions(fake, fs::perms::owner_all);
  const std::string old_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::setenv("PATH", (tools.path().string() + ":" + old_path).c_str(), 1);
  recorded_worker worker(recorded_h200(), child_that_wrote(read_json_file(
                                              testing::source_dir() / "tests/data/pipeline/child_result_ok.json")));
  bench_request request = vector_add(example("vector_add.cu"));
  request.sanitize = "memcheck";
  const bench_outcome outcome = run_bench(request, worker);
  ::setenv("PATH", old_path.c_str(), 1);
  ASSERT_EQ(worker.runs().size(), 2u);
  const recorded_run& pass = worker.runs()[0];
  ASSERT_FALSE(pass.wrapper.empty());
  EXPECT_EQ(pass.wrapper[0], fake.string());
  EXPECT_EQ(pass.wrapper[2], "memcheck");
  EXPECT_TRUE(pass.job.reference_library.empty());
  EXPECT_TRUE(pass.job.validation_only);
  EXPECT_TRUE(worker.runs()[1].wrapper.empty());
  EXPECT_EQ(outcome.document["sanitizer"]["tool"], "memcheck");
}

TEST_F(BenchPipeline, ACrashedChildIsAResultNotAnException) {
  wrapped_child_run crashed;
  crashed.process.started = true;
  crashed.process.term_signal = 11;
  crashed.process.stderr_text = "Segmentation fault\n";
  recorded_worker worker(recorded_h200(), crashed);
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  EXPECT_EQ(outcome.status, exit_status::kernel_failed);
  EXPECT_EQ(outcome.document["status"], "crashed");
  EXPECT_NE(outcome.document["reason"].get<std::string>().find("the measuring process died"), std::string::npos);
  EXPECT_EQ(outcome.document["correctness"]["checked"], false);
  EXPECT_EQ(outcome.document["gpu_name"], "NVIDIA H200");  // provenance even for a crash
}

TEST_F(BenchPipeline, AHungChildIsTimedOutAfterTheRequestsLimit) {
  wrapped_child_run hung;
  hung.process.started = true;
  hung.process.timed_out = true;
  recorded_worker worker(recorded_h200(), hung);
  bench_request request = vector_add(example("vector_add.cu"));
  request.target.timeout_s = 20;
  const bench_outcome outcome = run_bench(request, worker);
  EXPECT_EQ(worker.runs().front().timeout_s, 20);
  EXPECT_EQ(outcome.document["status"], "timed_out");
  EXPECT_NE(outcome.document["reason"].get<std::string>().find("after 20 s"), std::string::npos);
}

TEST_F(BenchPipeline, AnEnvironmentErrorInTheChildIsThrownWithItsHeadline) {
  wrapped_child_run refused;
  refused.process.started = true;
  refused.process.exit_code = 2;
  refused.process.stderr_text = "kopt: error: CUPTI refused kopt's API callbacks (is another profiler attached?)\n";
  recorded_worker worker(recorded_h200(), refused);
  try {
    run_bench(vector_add(example("vector_add.cu")), worker);
    FAIL() << "an environment error must be thrown";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "CUPTI refused kopt's API callbacks (is another profiler attached?)");
  }
}

TEST_F(BenchPipeline, AKernelThatDoesNotCompileNeverReachesTheWorker) {
  testing::scratch_dir dir;
  const fs::path broken = dir.write("broken.cu", "extern \"C\" void solve(const float* x, float* y, int N) { this is not C++ }\n");
  recorded_worker worker(recorded_h200(), child_that_wrote(json::object()));
  bench_request request = vector_add(broken);
  request.target.ref.clear();
  const bench_outcome outcome = run_bench(request, worker);
  EXPECT_TRUE(worker.runs().empty());
  ASSERT_TRUE(outcome.prepared.failed_build.has_value());
  EXPECT_EQ(outcome.prepared.failed_build->file, broken.string());
  EXPECT_FALSE(outcome.prepared.failed_build->result.compiler_output.empty());
  EXPECT_EQ(outcome.status, exit_status::kernel_failed);
  EXPECT_TRUE(outcome.document.is_null());
}

TEST_F(BenchPipeline, NoGpuIsAnEnvironmentErrorBeforeAnyBuild) {
  env::gpu_probe_result none;
  none.driver_problem = "libcuda.so.1 not found";
  recorded_worker worker(none, child_that_wrote(json::object()));
  try {
    run_bench(vector_add(example("vector_add.cu")), worker);
    FAIL() << "no GPU must be an error";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("no GPU to time on (libcuda.so.1 not found)"), std::string::npos) << e.headline();
  }
  EXPECT_TRUE(worker.runs().empty());
}

}  // namespace
}  // namespace kopt::pipeline
