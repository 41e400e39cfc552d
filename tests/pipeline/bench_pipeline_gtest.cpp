// The bench pipeline end to end on the CPU: real planning, real nvcc builds of the example
// kernel and its reference, and a recorded measuring worker where the GPU children would run:
// it answers for the kernel's and the reference's child alike, and leaves their outputs where
// real children leave them, so the parent's verdict runs on real files.
#include "pipeline/bench_pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/json_io.h"
#include "harness/job_problem.h"
#include "pipeline/reference_environment.h"
#include "support/kopt_process.h"
#include "pipeline/prestarted_child.h"
#include "pipeline/recorded_worker.h"
#include "support/recorded_children.h"
#include "support/recorded_h200.h"

namespace kopt::pipeline {
namespace {
namespace fs = std::filesystem;

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

TEST_F(BenchPipeline, TheKernelAndTheReferenceRunInSeparateChildrenAndTheParentJudges) {
  recorded_worker worker(recorded_h200(), two_children(1.0f));
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);

  ASSERT_EQ(worker.runs().size(), 2u);
  const recorded_run& kernel_run = worker.runs()[0];
  EXPECT_TRUE(kernel_run.wrapper.empty());
  EXPECT_EQ(kernel_run.device.name, "NVIDIA H200");
  EXPECT_EQ(kernel_run.timeout_s, 600);
  EXPECT_EQ(kernel_run.job.kind, harness::job_kind::kernel);
  EXPECT_EQ(kernel_run.job.backend, "cuda");
  EXPECT_TRUE(fs::exists(kernel_run.job.kernel_library)) << kernel_run.job.kernel_library;
  EXPECT_TRUE(kernel_run.job.reference_library.empty()) << "the reference must never be loaded beside the kernel";
  EXPECT_FALSE(kopt::harness::evidence_dir_of(kernel_run.job).empty());
  ASSERT_EQ(kernel_run.job.dims.size(), 1u);
  EXPECT_EQ(kernel_run.job.dims[0].name, "N");

  const recorded_run& reference_run = worker.runs()[1];
  EXPECT_EQ(reference_run.job.kind, harness::job_kind::reference);
  EXPECT_TRUE(reference_run.job.kernel_library.empty()) << "the kernel must never be loaded beside the reference";
  EXPECT_TRUE(fs::exists(reference_run.job.reference_library)) << reference_run.job.reference_library;
  EXPECT_NE(kopt::harness::evidence_dir_of(reference_run.job),
            kopt::harness::evidence_dir_of(kernel_run.job));
  ASSERT_EQ(reference_run.job.validation->evidence.size(),
            4u);  // the keys the kernel's child kept, in its order
  EXPECT_EQ(reference_run.job.validation->evidence[2].kind, harness::evidence_kind::call);
  EXPECT_EQ(reference_run.job.validation->evidence[2].value, 17u);
  EXPECT_TRUE(kopt::harness::is_timed(reference_run.job));
  EXPECT_FALSE(fs::exists(fs::path(kopt::harness::evidence_dir_of(kernel_run.job)).parent_path()))
      << "the private folder is removed";

  EXPECT_EQ(outcome.status, exit_status::ok);
  const bench_result& r = outcome.result;
  EXPECT_EQ(outcome.document["schema"], "kopt.benchmark_result/v4");
  EXPECT_EQ(to_document(read_bench_result(outcome.document, "the document")), outcome.document);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.correctness.checked);
  EXPECT_EQ(r.correctness.passed, true);
  ASSERT_EQ(r.correctness.seeds.size(), 3u);
  EXPECT_EQ(r.correctness.seeds[2].when, "after timing");
  EXPECT_EQ(r.gpu_name, "NVIDIA H200");
  EXPECT_EQ(r.arch, "sm_90a");
  EXPECT_EQ(r.driver_cuda_version, "13.0");
  EXPECT_NE(r.signature.find("void solve("), std::string::npos);
  ASSERT_TRUE(r.nvcc_command);
  EXPECT_NE(r.nvcc_command->at(0).find("nvcc"), std::string::npos);
  ASSERT_TRUE(r.kernel && r.reference);
  EXPECT_EQ(to_document(*r.kernel), to_document(*kernel_report_ok().kernel)) << "the child's timing, as it wrote it";
  EXPECT_EQ(to_document(*r.reference), to_document(*reference_report_ok().reference));
  EXPECT_NEAR(*r.speedup_vs_reference, r.reference->headline_ms() / r.kernel->headline_ms(), 1e-12);
  // Where the time went: the parent's steps in order, each process's own steps beside them.
  std::vector<std::string> steps;
  for (const auto& [name, seconds] : r.phases_s.steps) steps.push_back(name);
  EXPECT_EQ(steps, (std::vector<std::string>{"preparation", "kernel_process", "reference_process", "verdict",
                                             "removing_evidence"}));
  EXPECT_EQ(r.phases_s.kernel, kernel_report_ok().phases_s);
}

// A Python reference's process is asked for as soon as the GPU is known, before the kernel is
// built or run, so that Python and torch load meanwhile, and so is the kernel's; whatever
// happens, they end with the run.
TEST_F(BenchPipeline, APythonReferencesProcessIsStartedAheadAndEndsWithTheRun) {
  recorded_worker worker(recorded_h200(), two_children(1.0f));
  bench_request request = vector_add(example("vector_add.cu"));
  request.target.ref = example("vector_add_ref.py");
  const bench_outcome outcome = run_bench(request, worker);
  EXPECT_EQ(outcome.status, exit_status::ok) << outcome.result.reason;
  EXPECT_EQ(worker.events(), (std::vector<std::string>{"prestart kernel", "prestart reference", "run kernel",
                                                       "run reference", "drop prestarted"}));
  ASSERT_EQ(worker.prestarts().size(), 2u);
  const harness::bench_job& ahead = worker.prestarts()[1].job;
  EXPECT_EQ(ahead.reference_source, example("vector_add_ref.py").string());
  EXPECT_FALSE(ahead.python.empty());
  // What the process worker checks before it opens the gate of the one started ahead.
  EXPECT_TRUE(prestart_serves(ahead, worker.runs()[1].job));
  EXPECT_FALSE(prestart_serves(ahead, worker.runs()[0].job));
  EXPECT_EQ(worker.prestarts()[1].device.uuid, worker.runs()[1].device.uuid);
  // The kernel's own process too (it makes its GPU context during the build), for its job only.
  const harness::bench_job& kernel_ahead = worker.prestarts()[0].job;
  EXPECT_TRUE(prestart_serves(kernel_ahead, worker.runs()[0].job));
  EXPECT_FALSE(prestart_serves(kernel_ahead, worker.runs()[1].job));

  // A native reference would hold a GPU context through the kernel's sampling: not ahead.
  recorded_worker native(recorded_h200(), two_children(1.0f));
  run_bench(vector_add(example("vector_add.cu")), native);
  EXPECT_EQ(native.events(),
            (std::vector<std::string>{"prestart kernel", "run kernel", "run reference", "drop prestarted"}));

  // A build that fails never runs the reference: what was started ahead ends all the same.
  recorded_worker failing(recorded_h200(), two_children(1.0f));
  testing::scratch_dir dir;
  request.target.kernel = dir.write("broken.cu", "// kopt: A[N] B[N] C[N]\nextern \"C\" void solve(const float* A, "
                                                 "const float* B, float* C, int N) { syntax error }\n");
  run_bench(request, failing);
  EXPECT_EQ(failing.events(), (std::vector<std::string>{"prestart kernel", "prestart reference", "drop prestarted"}));
}

// What a progress line or notification is told: each step as it begins, in order.
TEST_F(BenchPipeline, EachStepIsAnnouncedAsItBegins) {
  recorded_worker worker(recorded_h200(), two_children(1.0f));
  bench_request request = vector_add(example("vector_add.cu"));
  std::vector<std::string> steps;
  request.progress = [&](const std::string& step) { steps.push_back(step); };
  ASSERT_EQ(run_bench(request, worker).status, exit_status::ok);
  EXPECT_EQ(steps, (std::vector<std::string>{"the kernel's measuring process: validation, then timing with random checks",
                                             "the reference's measuring process: its outputs, then its timing",
                                             "the verdict: 4 set(s) of outputs compared"}));
}

TEST_F(BenchPipeline, ACheckedTimedCallWithWrongOutputsFailsTheRunInTheParent) {
  recorded_worker worker(recorded_h200(), two_children(1.0f, 17));
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  EXPECT_EQ(outcome.status, exit_status::kernel_failed);
  EXPECT_EQ(outcome.result.status, harness::run_status::failed);
  const std::string reason = outcome.result.reason;
  EXPECT_EQ(reason.rfind("timed call 17 (checked at random): wrong values", 0), 0u) << reason;
  EXPECT_EQ(outcome.result.correctness.passed, false);
  EXPECT_FALSE(outcome.result.speedup_vs_reference) << "no speedup for a kernel that failed";
  EXPECT_TRUE(outcome.document["speedup_vs_reference"].is_null());
}

TEST_F(BenchPipeline, WrongValuesOnAValidationSeedNameTheSeed) {
  recorded_worker worker(recorded_h200(), two_children(3.0f));
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  EXPECT_EQ(outcome.result.status, harness::run_status::failed);
  const std::string reason = outcome.result.reason;
  EXPECT_EQ(reason.rfind("validation failed (seed 0): wrong values", 0), 0u) << reason;
  ASSERT_FALSE(outcome.result.correctness.seeds.empty());
  EXPECT_EQ(outcome.result.correctness.seeds[0].passed, false);
}

TEST_F(BenchPipeline, AnEarlierWrongOutputIsTheVerdictOverALaterFailureInTheKernelsProcess) {
  // The kernel's process failed it while timing (after keeping the validation seeds'
  // outputs); the reference still makes those outputs, and seed 0's wrong values came first.
  recorded_worker worker(recorded_h200(), [](const harness::bench_job& job) {
    if (job.kind == harness::job_kind::reference) {
      leave_outputs(job, 1.0f);
      harness::child_report reference = reference_report_ok();
      reference.reference.reset();  // validation only: not timed
      return child_that_wrote(reference);
    }
    harness::child_report result = kernel_report_ok();
    result.status = harness::run_status::failed;
    result.reason = "work outside kernels: call 1 ran no kernel on the GPU";
    result.evidence.resize(2);  // the seeds before timing
    harness::bench_job kept = job;
    kept.validation->evidence = result.evidence;
    leave_outputs(kept, 3.0f);
    return child_that_wrote(result);
  });
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  ASSERT_EQ(worker.runs().size(), 2u);
  EXPECT_FALSE(kopt::harness::is_timed(worker.runs()[1].job)) << "a failed kernel's reference is not timed";
  EXPECT_EQ(worker.runs()[1].job.validation->evidence.size(), 2u);
  const std::string reason = outcome.result.reason;
  EXPECT_EQ(reason.rfind("validation failed (seed 0): wrong values", 0), 0u) << reason;
  EXPECT_EQ(outcome.result.correctness.passed, false);
}

TEST_F(BenchPipeline, ALaterFailureInTheKernelsProcessStandsWhenTheKeptOutputsAreRight) {
  recorded_worker worker(recorded_h200(), [](const harness::bench_job& job) {
    if (job.kind == harness::job_kind::reference) {
      leave_outputs(job, 1.0f);
      return child_that_wrote(reference_report_ok());
    }
    harness::child_report result = kernel_report_ok();
    result.status = harness::run_status::failed;
    result.reason = "host thread: a kernel issued from another thread while no solve() call was running";
    harness::bench_job kept = job;
    kept.validation->evidence = result.evidence;
    leave_outputs(kept, 1.0f);
    return child_that_wrote(result);
  });
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  EXPECT_EQ(outcome.result.reason.rfind("host thread:", 0), 0u) << outcome.result.reason;
  EXPECT_EQ(outcome.result.correctness.passed, false);
  EXPECT_FALSE(outcome.result.kernel) << "no timing figures for a failed kernel";
  EXPECT_TRUE(outcome.document["kernel"].is_null());
}

TEST_F(BenchPipeline, AKernelThatFailsInItsOwnProcessBeforeKeepingAnythingNeverStartsTheReference) {
  recorded_worker worker(recorded_h200(), [](const harness::bench_job&) {
    harness::child_report result = kernel_report_ok();
    result.status = harness::run_status::failed;
    result.reason = "out of bounds: wrote 4 bytes past the end of C (first at +0 bytes)";
    result.evidence.clear();
    return child_that_wrote(result);
  });
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  EXPECT_EQ(worker.runs().size(), 1u);
  EXPECT_EQ(outcome.result.reason.rfind("out of bounds:", 0), 0u);
  EXPECT_TRUE(outcome.result.correctness.checked);
  EXPECT_EQ(outcome.result.correctness.passed, false);
}

// The kernel's process runs as kopt's user and could rewrite what the reference's side loads
// next (here the reference's source; its library in the compile cache, kopt's runner and kopt
// itself are held the same way): the parent sees the change and never starts the reference.
TEST_F(BenchPipeline, AReferenceFileChangedWhileTheKernelRanFailsTheRunBeforeTheReferenceStarts) {
  testing::scratch_dir sources;
  const fs::path reference = sources.path() / "vector_add_ref.cu";
  fs::copy_file(example("vector_add_ref.cu"), reference);
  recorded_worker worker(recorded_h200(), [&](const harness::bench_job& job) {
    if (job.kind != harness::job_kind::reference) {
      std::ofstream(reference, std::ios::app) << "// the kernel was here\n";
    }
    return two_children(1.0f)(job);
  });
  bench_request request = vector_add(example("vector_add.cu"));
  request.target.ref = reference;
  const bench_outcome outcome = run_bench(request, worker);
  EXPECT_EQ(worker.runs().size(), 1u) << "the reference must not run on a changed file";
  EXPECT_EQ(outcome.status, exit_status::kernel_failed);
  EXPECT_EQ(outcome.result.reason.rfind("reference tampering: " + reference.string() + " changed", 0), 0u)
      << outcome.result.reason;
  EXPECT_EQ(outcome.result.correctness.passed, false);
  EXPECT_FALSE(outcome.result.kernel) << "a failed kernel has no timing figures";
}

// A kernel that computes nothing and leaves links to where the reference's outputs will be:
// read through, the parent would compare the reference with itself. Links are refused.
TEST_F(BenchPipeline, AKernelWhoseOutputsAreLinksToTheReferencesFilesFails) {
  recorded_worker worker(recorded_h200(), [](const harness::bench_job& job) {
    if (job.kind == harness::job_kind::reference) return two_children(1.0f)(job);
    wrapped_child_run run = two_children(7.0f)(job);  // its own outputs are wrong
    for (const auto& key : kernel_report_ok().evidence) {
      const fs::path own =
          fs::path(kopt::harness::evidence_dir_of(job)) / harness::folder_name(key) / "C.out.bin";
      fs::remove(own);
      fs::create_symlink(fs::path("../..") / "reference" / harness::folder_name(key) / "C.out.bin", own);
    }
    return run;
  });
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  ASSERT_EQ(worker.runs().size(), 2u);
  EXPECT_EQ(outcome.status, exit_status::kernel_failed);
  EXPECT_EQ(outcome.result.reason.rfind("evidence tampering: the kernel's measuring process left C of seed_0 as a link", 0),
            0u)
      << outcome.result.reason;
  EXPECT_EQ(outcome.result.correctness.passed, false);
}

// A kernel that plants the reference's output file ahead of it and hard-links its own to it:
// the reference's folder is made afresh once the kernel's process has ended, so the kernel's
// file keeps its own (wrong) outputs.
TEST_F(BenchPipeline, FilesAKernelPlantsInTheReferencesFolderAreGoneBeforeTheReferenceRuns) {
  recorded_worker worker(recorded_h200(), [](const harness::bench_job& job) {
    if (job.kind == harness::job_kind::reference) return two_children(1.0f)(job);
    wrapped_child_run run = two_children(7.0f)(job);
    const fs::path reference_folder =
        fs::path(kopt::harness::evidence_dir_of(job)).parent_path() / "reference";
    for (const auto& key : kernel_report_ok().evidence) {
      const fs::path planted = reference_folder / harness::folder_name(key) / "C.out.bin";
      fs::create_directories(planted.parent_path());
      const fs::path own =
          fs::path(kopt::harness::evidence_dir_of(job)) / harness::folder_name(key) / "C.out.bin";
      fs::copy_file(own, planted);
      fs::remove(own);
      fs::create_hard_link(planted, own);
    }
    return run;
  });
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  EXPECT_EQ(outcome.status, exit_status::kernel_failed);
  EXPECT_EQ(outcome.result.reason.rfind("validation failed (seed 0): wrong values: C:", 0), 0u) << outcome.result.reason;
}

TEST_F(BenchPipeline, AReferenceWhoseProcessDiesIsNamedAsTheReference) {
  recorded_worker worker(recorded_h200(), [](const harness::bench_job& job) {
    if (job.kind != harness::job_kind::reference) return two_children(1.0f)(job);
    wrapped_child_run crashed;
    crashed.process.started = true;
    crashed.process.term_signal = 11;
    return crashed;
  });
  const bench_outcome outcome = run_bench(vector_add(example("vector_add.cu")), worker);
  EXPECT_EQ(outcome.result.status, harness::run_status::crashed);
  EXPECT_EQ(outcome.result.reason.rfind("the reference's measuring process died", 0), 0u) << outcome.result.reason;
  EXPECT_EQ(outcome.result.correctness.passed, std::nullopt);
}

TEST_F(BenchPipeline, TheReferencesProcessGetsNoVariableThatInjectsCodeOrChangesNumerics) {
  ::setenv("LD_PRELOAD", "/tmp/evil.so", 1);
  ::setenv("NVIDIA_TF32_OVERRIDE", "1", 1);
  ::setenv("TORCH_ALLOW_TF32_CUBLAS_OVERRIDE", "1", 1);
  const std::vector<std::string> cleared = variables_to_clear_for_reference();
  ::unsetenv("LD_PRELOAD");
  ::unsetenv("NVIDIA_TF32_OVERRIDE");
  ::unsetenv("TORCH_ALLOW_TF32_CUBLAS_OVERRIDE");
  const auto has = [&](const char* name) { return std::find(cleared.begin(), cleared.end(), name) != cleared.end(); };
  EXPECT_TRUE(has("LD_PRELOAD"));
  EXPECT_TRUE(has("NVIDIA_TF32_OVERRIDE"));
  EXPECT_TRUE(has("TORCH_ALLOW_TF32_CUBLAS_OVERRIDE"));
  EXPECT_FALSE(has("PATH"));
  EXPECT_FALSE(has("HOME"));
  EXPECT_TRUE(kept_for_reference("LD_LIBRARY_PATH"));
  EXPECT_TRUE(kept_for_reference("LC_ALL"));
  // Only the user can ask for more, by name.
  ::setenv("KOPT_REFERENCE_KEEP_ENV", "ASAN_OPTIONS,LD_PRELOAD", 1);
  EXPECT_TRUE(kept_for_reference("LD_PRELOAD"));
  EXPECT_TRUE(kept_for_reference("ASAN_OPTIONS"));
  EXPECT_FALSE(kept_for_reference("NVIDIA_TF32_OVERRIDE"));
  EXPECT_FALSE(kept_for_reference("LD_PRELOA"));
  ::unsetenv("KOPT_REFERENCE_KEEP_ENV");
}

TEST_F(BenchPipeline, ASanitizerPassRunsTheKernelAloneUnderTheTool) {
  // The pass looks compute-sanitizer up on PATH; a stand-in that only states its version is
  // enough, as the recorded worker never runs it.
  testing::scratch_dir tools;
  const fs::path fake = tools.write("compute-sanitizer", "#!/bin/sh\necho 'NVIDIA (R) Compute Sanitizer Version 2025.3.1.0'\n");
  fs::permissions(fake, fs::perms::owner_all);
  const std::string old_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::setenv("PATH", (tools.path().string() + ":" + old_path).c_str(), 1);
  recorded_worker worker(recorded_h200(), two_children(1.0f));
  bench_request request = vector_add(example("vector_add.cu"));
  request.sanitize = "memcheck";
  const bench_outcome outcome = run_bench(request, worker);
  ::setenv("PATH", old_path.c_str(), 1);
  ASSERT_EQ(worker.runs().size(), 3u);  // the pass, then the kernel's and the reference's children
  const recorded_run& pass = worker.runs()[0];
  ASSERT_FALSE(pass.wrapper.empty());
  EXPECT_EQ(pass.wrapper[0], fake.string());
  EXPECT_EQ(pass.wrapper[2], "memcheck");
  EXPECT_TRUE(pass.job.reference_library.empty());
  EXPECT_FALSE(kopt::harness::is_timed(pass.job));
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
  ASSERT_EQ(worker.runs().size(), 1u) << outcome.document.dump();
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

TEST_F(BenchPipeline, DefinitionsPickTheVariantAndTravelToTheBuildAndTheChildren) {
  testing::scratch_dir dir;
  const fs::path variants = dir.write("variants.cu",
                                      "// kopt: A[N] B[N] C[N]\n"
                                      "__global__ void add(const float* a, const float* b, float* c, int n, int step) {\n"
                                      "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) c[i] = a[i] + b[i];\n"
                                      "}\n"
                                      "#if defined(WIDE) && WIDE >= 2\n"
                                      "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {\n"
                                      "  add<<<256, 256>>>(A, B, C, N, 256 * 256);\n"
                                      "}\n"
                                      "#else\n"
                                      "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {\n"
                                      "  add<<<(N + 255) / 256, 256>>>(A, B, C, N, N);\n"
                                      "}\n"
                                      "#endif\n");
  recorded_worker worker(recorded_h200(), two_children(1.0f));
  bench_request request = vector_add(variants);
  request.target.defines = {"WIDE=2"};
  const bench_outcome outcome = run_bench(request, worker);
  ASSERT_FALSE(outcome.prepared.failed_build.has_value()) << outcome.prepared.failed_build->result.compiler_output;
  const auto& command = outcome.prepared.kernel_build.command;
  EXPECT_NE(std::find(command.begin(), command.end(), "-DWIDE=2"), command.end()) << json(command).dump();
  ASSERT_EQ(worker.runs().size(), 2u);
  EXPECT_EQ(worker.runs()[0].job.defines, std::vector<std::string>{"WIDE=2"}) << "the children plan under them too";
  EXPECT_EQ(outcome.document["status"], "ok");
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
