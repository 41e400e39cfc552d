// The one printer of a bench result, from typed results shaped like the measuring processes'
// (a CUDA result and a Triton one with an autotuned kernel): the lines a user reads, the same
// wherever the text goes (terminal, benchmark.stdout.txt, an MCP client).
#include "pipeline/bench_text.h"

#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/timings.h"

namespace kopt::pipeline {
namespace {

bench_result triton_result() {
  bench_result r;
  r.protocol = "cold: L2 flushed before every sample by reading 120.00 MiB";
  r.correctness.checked = true;
  r.correctness.seeds = {
      seed_check{0, "before timing", true, json::array({json{{"summary", "C: 4,194,304 elements match"}}})}};
  r.triton = json::parse(R"({"version": "3.6.0", "interpreted": false, "kernels": [{
      "name": "matmul_tiles", "grid": [128, 1, 1], "constexprs": {"BLOCK_M": 128, "BLOCK_N": 256},
      "num_warps": 8, "num_stages": 3, "registers_per_thread": 200, "spills": 0, "shared_memory_bytes": 147456,
      "autotuner": {"configs": 4, "key": ["M"], "chosen": {"kwargs": {"BLOCK_M": 128}, "num_warps": 8, "num_stages": 3}}}]})");
  harness::runner_facts runner;
  runner.torch = harness::torch_facts{"2.11.0", "13.0", "highest", false, true};
  runner.overhead_s.startup_s = 4.7;
  runner.overhead_s.total_s = 9.7;
  r.python_runner = runner;
  return r;
}

TEST(BenchText, TritonKernelShowsWhatTritonCompiledAndTheRunner) {
  bench_result r = triton_result();
  r.kernel = testing::timing_around(0.0267);
  r.buffer_bytes = 25165824;
  const std::string text = bench_text(r);
  EXPECT_NE(
      text.find(
          "triton kernel matmul_tiles: grid (128, 1, 1), BLOCK_M=128 BLOCK_N=256, num_warps 8, num_stages "
          "3, 200 registers/thread, 0 spills, 147456 bytes shared"),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find(
          "autotuner: chose {\"kwargs\":{\"BLOCK_M\":128},\"num_warps\":8,\"num_stages\":3} among 4 configs"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("one run_kernel() call"), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("approximate bandwidth: {:.1f} GB/s", 25165824 / (r.kernel->headline_ms() * 1e-3) / 1e9)),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find(
          "kernel and reference ran in Python: torch 2.11.0 (CUDA 13.0, TF32 matmul off, cuDNN TF32 on); "
          "runner 9.70 s in all (start-up 4.70 s)\n"),
      std::string::npos)
      << text;
}

TEST(BenchText, FailedTritonKernelPrintsItsChecksAndNoTimes) {
  bench_result r = triton_result();
  r.triton["kernels"][0].erase("grid");
  const std::string text = bench_text(r);
  EXPECT_NE(text.find("check (seed 0, before timing): C: 4,194,304 elements match"), std::string::npos)
      << text;
  EXPECT_NE(text.find("triton kernel matmul_tiles: BLOCK_M=128"), std::string::npos) << text;
  EXPECT_EQ(text.find("median ms"), std::string::npos) << text;
}

// Without a reference the outputs are shown, as the toolkit showed them: a user sees at once
// zeros, poison or NaN.
TEST(BenchText, WithoutAReferenceEveryBufferIsPreviewed) {
  bench_result r;
  r.previews = std::vector<harness::buffer_preview>{{"A", "in", "float32", 1048576, {"0.25", "-1.5", "3"}},
                                                    {"C", "out", "float32", 3, {"nan", "inf", "0"}}};
  const std::string text = bench_text(r);
  EXPECT_NE(text.find("preview: A (in, 1048576 x float32): 0.25 -1.5 3 ...\n"), std::string::npos) << text;
  EXPECT_NE(text.find("preview: C (out, 3 x float32): nan inf 0\n"), std::string::npos) << text;
  r.correctness.checked = true;
  EXPECT_EQ(bench_text(r).find("preview:"), std::string::npos) << "judged outputs need no preview";
}

TEST(BenchText, TheTableShowsTheTimingDocumentsFigures) {
  bench_result r;
  r.kernel = testing::timing_around(0.5);
  r.buffer_bytes = 1000000000;
  r.warnings = {"2 other process(es)"};
  const std::string text = bench_text(r);
  const measure::timing_document& k = *r.kernel;
  EXPECT_NE(text.find(fmt::format("{:<10} {:>10.4f} {:>10.4f} {:>10.4f}-{:<11.4f}", "kernel", k.estimate_ms,
                                  k.median_ms, k.median_ci95_ms[0], k.median_ci95_ms[1])),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(fmt::format("{:>8}  converged", k.sample_count)), std::string::npos) << text;
  EXPECT_NE(text.find("check: no reference given"), std::string::npos) << text;
  EXPECT_NE(text.find("one solve() call"), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("approximate bandwidth: {:.1f} GB/s", 1e9 / (k.estimate_ms * 1e-3) / 1e9)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("warning: 2 other process(es)"), std::string::npos) << text;
  EXPECT_EQ(bench_summary_line(r),
            fmt::format("kernel {:.6g} ms (median), 95 % interval of the median [{:.6g}, {:.6g}]",
                        k.estimate_ms, k.median_ci95_ms[0], k.median_ci95_ms[1]));
}

TEST(BenchText, AReferenceTimingKeptFromAnEarlierRunSaysWhen) {
  bench_result r;
  r.correctness.checked = true;
  r.kernel = testing::timing_around(0.5);
  r.reference = testing::timing_around(0.7);
  r.reference_timing_cache = reference_cache_note{true, false, "2026-12-03T05:00:00Z", "ab", std::nullopt};
  EXPECT_NE(bench_text(r).find("reference timing: kept from 2026-12-03T05:00:00Z"), std::string::npos);

  r.reference_timing_cache =
      reference_cache_note{false, false, std::nullopt, std::nullopt, "its writes were not restricted"};
  EXPECT_NE(bench_text(r).find("reference timing: measured now, not kept: its writes were not restricted"),
            std::string::npos);

  r.reference_timing_cache = reference_cache_note{false, true, std::nullopt, "ab", std::nullopt};
  EXPECT_EQ(bench_text(r).find("reference timing:"), std::string::npos) << "measured now and kept: as always";
}

TEST(BenchText, PhasesSayWhereTheWallTimeWent) {
  bench_result r;
  r.phases_s.kernel = {{"validation", 0.5}, {"timing", 3.21}, {"gpu_context_made_ahead", 0.14}};
  r.phases_s.reference = {{"outputs", 0.77}};
  r.phases_s.steps = {{"kernel_process", 4.19}, {"reference_process", 1.5}, {"verdict", 1.83}};
  EXPECT_EQ(phases_text(r),
            "where the time went: kernel_process 4.19 s (validation 0.50, timing 3.21) [before it, during "
            "the build: "
            "gpu_context_made_ahead 0.14]; reference_process 1.50 s (outputs 0.77); verdict 1.83 s\n");
  EXPECT_EQ(phases_text(bench_result{}), "");
}

TEST(BenchText, TheSanitizerPassSaysWhatItFound) {
  sanitizer_record pass{"memcheck", {}, "2025.3", 0, {}, sanitizer_status::clean, std::nullopt};
  EXPECT_EQ(sanitizer_text(pass), "compute-sanitizer memcheck: no errors\n");
  pass.status = sanitizer_status::errors;
  pass.errors = 2;
  pass.report = {"Invalid __global__ write of size 4 bytes"};
  EXPECT_EQ(sanitizer_text(pass),
            "compute-sanitizer memcheck: 2 error(s)\n  Invalid __global__ write of size 4 bytes\n");
}

}  // namespace
}  // namespace kopt::pipeline
