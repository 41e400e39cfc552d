// The table kopt bench prints, from result documents shaped like the measuring processes'
// (a CUDA result and a Triton one with an autotuned kernel): the lines a user reads.
#include "cli/bench_report.h"

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

namespace kopt::cli {
namespace {

std::string printed(const json& result, std::int64_t bytes) {
  std::FILE* out = std::tmpfile();
  print_bench_result(out, pipeline::bench_result_from_child(result), bytes);
  std::rewind(out);
  std::string text;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, out)) text.append(buffer, n);
  std::fclose(out);
  return text;
}

json timing(double median_ms) {
  return json{{"median_ms", median_ms}, {"median_ci95_ms", {median_ms * 0.99, median_ms * 1.01}},
              {"min_ms", median_ms * 0.98}, {"p90_ms", median_ms * 1.02}, {"host_end_to_end_median_ms", 0.3},
              {"sample_count", 200}, {"stop_reason", "converged"}, {"streams", 1}};
}

json triton_result() {
  return json::parse(R"({
    "status": "ok", "protocol": "cold: L2 flushed before every sample by reading 120.00 MiB",
    "correctness": {"checked": true, "seeds": [{"seed": 0, "when": "before timing",
                    "outputs": [{"summary": "C: 4,194,304 elements match"}]}]},
    "triton": {"version": "3.6.0", "interpreted": false, "kernels": [{
      "name": "matmul_tiles", "grid": [128, 1, 1], "constexprs": {"BLOCK_M": 128, "BLOCK_N": 256},
      "num_warps": 8, "num_stages": 3, "registers_per_thread": 200, "spills": 0, "shared_memory_bytes": 147456,
      "autotuner": {"configs": 4, "key": ["M"], "chosen": {"kwargs": {"BLOCK_M": 128}, "num_warps": 8, "num_stages": 3}}}]},
    "python_runner": {"torch": {"version": "2.11.0", "cuda": "13.0", "tf32_matmul": false, "tf32_cudnn": true},
                      "overhead_s": {"startup_s": 4.7, "total_s": 9.7}},
    "warnings": []})");
}

TEST(BenchReport, TritonKernelShowsWhatTritonCompiledAndTheRunner) {
  json r = triton_result();
  r["kernel"] = timing(0.0267);
  const std::string text = printed(r, 25165824);
  EXPECT_NE(text.find("triton kernel matmul_tiles: grid (128, 1, 1), BLOCK_M=128 BLOCK_N=256, num_warps 8, num_stages "
                      "3, 200 registers/thread, 0 spills, 147456 bytes shared"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("autotuner: chose {\"kwargs\":{\"BLOCK_M\":128},\"num_warps\":8,\"num_stages\":3} among 4 configs"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("one run_kernel() call"), std::string::npos) << text;
  EXPECT_NE(text.find("approximate bandwidth: 942.5 GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel and reference ran in Python: torch 2.11.0 (CUDA 13.0, TF32 matmul off, cuDNN TF32 on); "
                      "runner 9.70 s in all (start-up 4.70 s)\n"),
            std::string::npos)
      << text;
}

TEST(BenchReport, FailedTritonKernelPrintsItsChecksAndNoTimes) {
  json r = triton_result();
  r["triton"]["kernels"][0].erase("grid");
  const std::string text = printed(r, 0);
  EXPECT_NE(text.find("check (seed 0, before timing): C: 4,194,304 elements match"), std::string::npos) << text;
  EXPECT_NE(text.find("triton kernel matmul_tiles: BLOCK_M=128"), std::string::npos) << text;
  EXPECT_EQ(text.find("median ms"), std::string::npos) << text;
}

TEST(BenchReport, CudaKernelWithoutReference) {
  json r = json::parse(R"x({"status": "ok", "correctness": {"checked": false}, "warnings": ["2 other process(es)"]})x");
  r["kernel"] = timing(0.5);
  const std::string text = printed(r, 1000000000);
  EXPECT_NE(text.find("check: no reference given"), std::string::npos) << text;
  EXPECT_NE(text.find("one solve() call"), std::string::npos) << text;
  EXPECT_NE(text.find("approximate bandwidth: 2000.0 GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("warning: 2 other process(es)"), std::string::npos) << text;
}

TEST(BenchReport, AReferenceTimingKeptFromAnEarlierRunSaysWhen) {
  json r = json::parse(R"x({"status": "ok", "correctness": {"checked": true}, "warnings": []})x");
  r["kernel"] = timing(0.5);
  r["reference"] = timing(0.7);
  r["reference_timing_cache"] = json{{"from_cache", true}, {"measured_at", "2026-12-03T05:00:00Z"}, {"key", "ab"}};
  EXPECT_NE(printed(r, 0).find("reference timing: kept from 2026-12-03T05:00:00Z"), std::string::npos);

  r["reference_timing_cache"] = json{{"from_cache", false}, {"stored", false}, {"why", "its writes were not restricted"}};
  EXPECT_NE(printed(r, 0).find("reference timing: measured now, not kept: its writes were not restricted"),
            std::string::npos);

  r["reference_timing_cache"] = json{{"from_cache", false}, {"stored", true}, {"key", "ab"}};
  EXPECT_EQ(printed(r, 0).find("reference timing:"), std::string::npos) << "measured now and kept: as always";
}

TEST(BenchReport, PhasesSayWhereTheWallTimeWent) {
  json r = json::parse(R"x({"status": "ok", "correctness": {"checked": true},
    "phases_s": {"kernel": {"validation": 0.5, "timing": 3.21, "gpu_context_made_ahead": 0.14}, "reference": {"outputs": 0.77},
                 "kernel_process": 4.19, "reference_process": 1.5, "verdict": 1.83}})x");
  std::FILE* out = std::tmpfile();
  print_phases(out, pipeline::bench_result_from_child(r));
  std::rewind(out);
  char buffer[1024] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, out);
  std::fclose(out);
  EXPECT_EQ(std::string(buffer, n),
            "where the time went: kernel_process 4.19 s (validation 0.50, timing 3.21) [before it, during the build: "
            "gpu_context_made_ahead 0.14]; reference_process 1.50 s "
            "(outputs 0.77); verdict 1.83 s\n");
}

}  // namespace
}  // namespace kopt::cli
