// kopt's real commands, parsed and run in this process as main runs them, with a recorded
// measuring worker where the GPU would be (the front end's services): each option reaches the
// job the worker was given, and what the command prints is what the recorded document says.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cli/command_line.h"
#include "cli/recorded_command_run.h"
#include "pipeline/bench_result.h"
#include "pipeline/recorded_worker.h"
#include "support/captured_output.h"
#include "support/kopt_process.h"
#include "support/recorded_children.h"
#include "support/recorded_h200.h"
#include "support/timings.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;
using pipeline::recorded_worker;
using RecordedCommands = recorded_command_test;

TEST_F(RecordedCommands, BenchsOptionsReachTheJobAndTheVerdictAndItPrintsTheDocumentsFigures) {
  recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f));
  const fs::path document_file = m_out.path() / "result.json";
  const testing::captured_run r =
      run({"bench", example("vector_add.cu"), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--warmup", "5",
           "--repeat", "12", "--min-seconds", "0.2", "--seed", "7", "--atol", "1e-5", "--rtol", "2e-4", "--hot",
           "--json-out", document_file.string()},
          worker);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(worker.runs().size(), 2U);
  for (const pipeline::recorded_run& child : worker.runs()) {
    const harness::bench_job& job = child.job;
    EXPECT_EQ(job.sampling.warmup, 5);
    EXPECT_EQ(job.sampling.repeat, 12);
    EXPECT_EQ(job.sampling.min_seconds, 0.2);
    EXPECT_TRUE(job.sampling.hot);
    EXPECT_EQ(job.seed, 7U);
    EXPECT_EQ(job.atol, std::optional<double>(1e-5));
    EXPECT_EQ(job.rtol, std::optional<double>(2e-4));
  }
  const pipeline::bench_result result = pipeline::read_bench_result_file(document_file);
  EXPECT_EQ(result.correctness.atol, std::optional<double>(1e-5)) << "the verdict compared with the flags' tolerances";
  EXPECT_EQ(result.correctness.rtol, std::optional<double>(2e-4));
  ASSERT_TRUE(result.kernel && result.reference);
  // The table's rows are the document's figures.
  for (const auto& [who, timing] : {std::pair{"kernel", *result.kernel}, std::pair{"reference", *result.reference}}) {
    const std::string row =
        fmt::format("{:<10} {:>10.4f} {:>10.4f} {:>10.4f}-{:<11.4f}", who, timing.headline_ms(), timing.median_ms,
                    timing.median_ci95_ms[0], timing.median_ci95_ms[1]);
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  }
  EXPECT_NE(r.out.find(fmt::format("speedup vs reference: {:.3f}x", *result.speedup_vs_reference)), std::string::npos)
      << r.out;
}

TEST_F(RecordedCommands, BenchWithoutAtolLeavesTheToleranceToTheOutputsType) {
  recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f));
  const testing::captured_run r =
      run({"bench", example("vector_add.cu"), "--ref", example("vector_add_ref.cu"), "--N=1048576"}, worker);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_FALSE(worker.runs().empty());
  EXPECT_FALSE(worker.runs().front().job.atol.has_value());
  EXPECT_FALSE(worker.runs().front().job.rtol.has_value());
}

// --profile-mode makes one profile job (what ncu runs): its calls and warm-up, no validation, no
// reference process, and the line that says how many calls ran in the window.
TEST_F(RecordedCommands, BenchsProfileModeRunsOnlyTheProfileWindowWithItsCalls) {
  recorded_worker worker(pipeline::recorded_h200(), [](const harness::bench_job& job) {
    harness::child_report report = pipeline::kernel_report_ok();
    report.evidence.clear();
    report.kernel.reset();
    report.profile_calls = job.profile_calls;
    return pipeline::child_that_wrote(report);
  });
  const testing::captured_run r =
      run({"bench", example("vector_add.cu"), "--ref", example("vector_add_ref.cu"), "--N=1048576",
           "--profile-mode", "--profile-calls", "3", "--warmup", "4"},
          worker);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(worker.runs().size(), 1U) << "the reference is not run in profile mode";
  const harness::bench_job& job = worker.runs().front().job;
  EXPECT_EQ(job.kind, harness::job_kind::profile);
  EXPECT_EQ(job.profile_calls, std::optional<int>(3));
  EXPECT_EQ(job.sampling.warmup, 4);
  EXPECT_FALSE(job.validation.has_value()) << "nothing is validated in the profiler window";
  EXPECT_NE(r.out.find("profile mode: 3 call(s) of solve() ran inside the profiler window"),
            std::string::npos)
      << r.out;
}

// --sanitize runs the kernel alone under compute-sanitizer first: one seed, not timed, nothing
// kept; then the judged run as usual.
TEST_F(RecordedCommands, BenchsSanitizerPassIsOneUntimedSeedUnderTheTool) {
  // The tool is found and its version read as on a GPU machine; the recorded worker runs nothing.
  const fs::path tool =
      m_out.write("bin/compute-sanitizer", "#!/bin/sh\necho 'Compute Sanitizer Version 2025.3.1'\n");
  fs::permissions(tool, fs::perms::owner_all);
  const std::string path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::setenv("PATH", (tool.parent_path().string() + ":" + path).c_str(), 1);
  recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f));
  const testing::captured_run r = run({"bench", example("vector_add.cu"), "--ref",
                                       example("vector_add_ref.cu"), "--N=1048576", "--sanitize", "memcheck"},
                                      worker);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(worker.runs().size(), 3U) << "the pass, then the kernel's and the reference's processes";
  const pipeline::recorded_run& pass = worker.runs().front();
  ASSERT_FALSE(pass.wrapper.empty());
  EXPECT_NE(pass.wrapper.front().find("compute-sanitizer"), std::string::npos) << pass.wrapper.front();
  EXPECT_EQ(pass.job.kind, harness::job_kind::kernel);
  ASSERT_TRUE(pass.job.validation.has_value());
  EXPECT_EQ(pass.job.validation->seeds, 1);
  EXPECT_FALSE(pass.job.validation->timed);
  EXPECT_TRUE(pass.job.validation->evidence_dir.empty());
  EXPECT_TRUE(harness::is_timed(worker.runs()[1].job)) << "the judged run after it is timed";
  ::setenv("PATH", path.c_str(), 1);
}

// What the kernel printed while measured (host or device printf reaches its process's
// standard output) is in the result, said in a line, and shown with --verbose.
TEST_F(RecordedCommands, WhatTheKernelPrintedIsKeptInTheResultAndShownWithVerbose) {
  const recorded_worker::responder two = pipeline::two_children(1.0f);
  recorded_worker worker(pipeline::recorded_h200(), [&two](const harness::bench_job& job) {
    pipeline::wrapped_child_run child = two(job);
    if (job.kind != harness::job_kind::reference)
      child.process.stdout_text = "solve: N=1048576\nblock 0: sum 2.0\n";
    return child;
  });
  const std::vector<std::string> bench = {"bench", example("vector_add.cu"), "--ref", example("vector_add_ref.cu"),
                                          "--N=1048576"};
  std::vector<std::string> json_words = bench;
  json_words.push_back("--json");
  const testing::captured_run as_json = run(json_words, worker);
  ASSERT_EQ(as_json.status, 0) << as_json.err;
  const pipeline::bench_result result = pipeline::read_bench_result(json::parse(as_json.out), "--json");
  ASSERT_TRUE(result.kernel_output);
  EXPECT_EQ(result.kernel_output->stdout_text, "solve: N=1048576\nblock 0: sum 2.0\n");
  EXPECT_EQ(result.kernel_output->stdout_bytes, 34U);
  EXPECT_FALSE(result.kernel_output->note);

  const testing::captured_run plain = run(bench, worker);
  EXPECT_NE(plain.out.find("the kernel's process printed 34 bytes (kopt bench -v shows them"), std::string::npos)
      << plain.out;
  EXPECT_EQ(plain.out.find("block 0: sum 2.0"), std::string::npos) << plain.out;
  std::vector<std::string> verbose_words = bench;
  verbose_words.push_back("-v");
  const testing::captured_run verbose = run(verbose_words, worker);
  EXPECT_NE(verbose.out.find("the kernel's process printed:\n--- standard output (34 bytes) ---\nsolve: N=1048576\n"
                             "block 0: sum 2.0\n"),
            std::string::npos)
      << verbose.out;
}

TEST_F(RecordedCommands, ACheckedCallWithWrongOutputsFailsBenchWithItsReasonAndExit1) {
  recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f, 17));
  const testing::captured_run r =
      run({"bench", example("vector_add.cu"), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--json"}, worker);
  EXPECT_EQ(r.status, 1);
  const pipeline::bench_result result = pipeline::read_bench_result(json::parse(r.out), "--json");
  EXPECT_EQ(result.reason.rfind("timed call 17 (checked at random): wrong values", 0), 0U) << result.reason;
  EXPECT_NE(r.err.find("kopt: failed: timed call 17"), std::string::npos) << r.err;
}

TEST_F(RecordedCommands, ComparesOptionsReachTheVersionsHeldOpenInTurns) {
  recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f));
  std::vector<harness::bench_job> jobs;
  worker.respond_to_blocks([&](const harness::bench_job& job, int calls) {
    jobs.push_back(job);
    const double ms = job.kernel_source.find("vector_add.cu") != std::string::npos ? 0.020 : 0.0206;
    return pipeline::timing_block{testing::timing_of_samples(std::vector<double>(static_cast<std::size_t>(calls), ms)),
                                  "", ""};
  });
  testing::scratch_dir sources;
  const fs::path slower = sources.write("vector_add_slow.cu", read_text_file(example("vector_add.cu"), "example"));
  const testing::captured_run r = run({"compare", example("vector_add.cu"), slower.string(), "--N=1048576", "--seed",
                                       "3", "--hot", "--max-seconds", "5", "--json"},
                                      worker);
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  ASSERT_FALSE(jobs.empty());
  for (const harness::bench_job& job : jobs) {
    EXPECT_EQ(job.seed, 3U);
    EXPECT_TRUE(job.sampling.hot);
    EXPECT_TRUE((job.kind == harness::job_kind::blocks));
  }
  const json document = json::parse(r.out);
  EXPECT_EQ(document.value("outcome", std::string()), "negative") << r.out;  // the candidate is 3 % slower
  EXPECT_NEAR(document.value("ratio", 0.0), 1.03, 1e-9);
}

}  // namespace
}  // namespace kopt::cli
