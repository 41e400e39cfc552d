// The diagnosis of real H200 exports of the example kernels (tests/data/ncu/h200/README.md):
// each case's class, the numbers behind it, and agreement with ncu's own SOLBottleneck rule.
#include <filesystem>

#include <gtest/gtest.h>

#include "analyze/analyzer.h"
#include "core/files.h"
#include "profile/raw_csv.h"
#include "profile/rule_advice.h"

namespace kopt::analyze {
namespace {

std::vector<kernel_diagnosis> diagnose_case(const std::string& name, const std::string& backend = "cuda") {
  const auto dir = std::filesystem::path(KOPT_TEST_DATA_DIR) / "ncu" / "h200";
  const auto raw = profile::parse_raw_csv(read_text_file(dir / (name + "_raw.csv")), name);
  const auto details = profile::parse_details(read_text_file(dir / (name + "_details.csv")));
  return diagnose(raw, details, backend);
}

std::vector<std::string> recommendation_ids(const kernel_diagnosis& d) {
  std::vector<std::string> ids;
  for (const auto& r : d.recommendations) ids.push_back(r.id);
  return ids;
}

TEST(H200Fixtures, SoftmaxNaiveHasTooFewBlocks) {
  const auto k = diagnose_case("softmax_naive").at(0);
  EXPECT_EQ(k.verdict.cls, bottleneck::launch);
  EXPECT_NEAR(*k.sol.sm_pct, 1.05, 1e-9);
  EXPECT_NEAR(*k.sol.memory_pct, 17.94, 1e-9);
  EXPECT_EQ(*k.launch.blocks, 32.0);
  EXPECT_EQ(*k.launch.waves_per_sm, 0.02);
  EXPECT_EQ(*k.launch.sm_count, 132.0);
  EXPECT_NEAR(k.issue.stalls.at(0).share_pct, 89.64, 0.01);  // long_scoreboard
  EXPECT_EQ(k.issue.stalls.at(0).reason, "long_scoreboard");
  EXPECT_TRUE(k.cross_check.available);
  EXPECT_EQ(k.cross_check.ncu_class, "launch");
  EXPECT_TRUE(k.cross_check.agrees);
  EXPECT_EQ(recommendation_ids(k).at(0), "cuda-more-blocks");
}

TEST(H200Fixtures, SoftmaxBlockIsLimitedByRegisters) {
  const auto k = diagnose_case("softmax_block").at(0);
  EXPECT_EQ(k.verdict.cls, bottleneck::occupancy);
  EXPECT_NEAR(*k.sol.sm_pct, 24.42, 1e-9);
  EXPECT_NEAR(*k.sol.memory_pct, 41.88, 1e-9);
  EXPECT_EQ(*k.occ.theoretical_pct, 75.0);
  EXPECT_NEAR(*k.occ.achieved_pct, 52.82, 1e-9);
  EXPECT_EQ(k.occ.limiters, std::vector<std::string>{"registers"});
  EXPECT_EQ(*k.occ.limit_blocks, 24.0);
  EXPECT_NEAR(*k.memory.shared_load_conflict_pct, 4.24, 0.01);
  EXPECT_EQ(k.cross_check.ncu_class, "latency");  // ncu's latency covers kopt's occupancy
  EXPECT_TRUE(k.cross_check.agrees);
  EXPECT_EQ(recommendation_ids(k).at(0), "cuda-register-pressure");
}

TEST(H200Fixtures, VectorAddIsDramBound) {
  const auto k = diagnose_case("vector_add").at(0);
  EXPECT_EQ(k.verdict.cls, bottleneck::dram);
  EXPECT_FALSE(k.verdict.at_hardware_limit);
  EXPECT_NEAR(*k.sol.memory_pct, 67.25, 1e-9);
  EXPECT_NEAR(*k.sol.sm_pct, 41.56, 1e-9);
  EXPECT_EQ(k.sol.memory_unit, "dram");
  // L2 throughput reads higher than memory SOL, yet DRAM sets it (NCU.md).
  EXPECT_GT(*k.sol.l2_pct, *k.sol.memory_pct);
  // 16,777,216 floats: 2 reads + 1 write of 4 bytes, one FADD each.
  EXPECT_EQ(*k.roof.fp32_flop, 16777216.0);
  EXPECT_EQ(*k.roof.dram_bytes, 189543936.0);
  EXPECT_NEAR(*k.roof.arithmetic_intensity, 16777216.0 / 189543936.0, 1e-12);
  EXPECT_NEAR(*k.roof.dram_pct_of_peak, 67.25, 0.05);  // agrees with ncu's DRAM throughput
  EXPECT_NEAR(*k.roof.peak_dram_bytes_per_s / 1e12, 4.81, 0.01);
  // The H200's DFMA rate (8,448 a cycle over its 132 SMs) is half its FFMA rate: about 33 TFLOP/s
  // of FP64 at the profile's 1.96 GHz, the roof of a float64 problem's speed of light.
  ASSERT_TRUE(k.roof.peak_fp64_flop_per_s && k.roof.peak_fp32_flop_per_s);
  EXPECT_NEAR(*k.roof.peak_fp64_flop_per_s / *k.roof.peak_fp32_flop_per_s, 0.5, 1e-12);
  EXPECT_NEAR(*k.roof.peak_fp64_flop_per_s / 1e12, 33.1, 0.1);
  EXPECT_EQ(k.roof.bound_by, "memory");
  EXPECT_EQ(*k.memory.load_bytes_per_sector, 32.0);
  EXPECT_TRUE(k.cross_check.agrees);
  EXPECT_EQ(k.cross_check.ncu_class, "dram");  // "... to identify the DRAM bottleneck"
}

TEST(H200Fixtures, MatmulNaiveSaturatesL1) {
  const auto k = diagnose_case("matmul_naive").at(0);
  EXPECT_EQ(k.verdict.cls, bottleneck::l1);
  EXPECT_TRUE(k.verdict.at_hardware_limit);
  EXPECT_NEAR(*k.sol.memory_pct, 91.76, 1e-9);
  EXPECT_EQ(k.sol.memory_unit, "l1");
  EXPECT_EQ(*k.roof.fp32_flop, 2.0 * 1024 * 1024 * 1024);  // 2 M N K
  EXPECT_NEAR(*k.roof.compute_pct_of_peak, 7.63, 0.01);
  EXPECT_EQ(k.roof.bound_by, "compute");
  EXPECT_EQ(*k.memory.load_bytes_per_sector, 18.0);
  EXPECT_EQ(k.cross_check.ncu_class, "l1");
  EXPECT_TRUE(k.cross_check.agrees);
  EXPECT_EQ(recommendation_ids(k).at(0), "cuda-coalesce-global");
}

TEST(H200Fixtures, CutlassGemmRunsWgmmaAtTheTensorRoof) {
  const auto k = diagnose_case("cutlass_gemm", "cutlass").at(0);
  EXPECT_EQ(k.verdict.cls, bottleneck::compute);
  EXPECT_TRUE(k.verdict.at_hardware_limit);
  EXPECT_NEAR(*k.sol.sm_pct, 88.90, 1e-9);
  EXPECT_EQ(k.issue.busiest_pipe, "tensor");
  EXPECT_EQ(k.tensor.instructions, "wgmma");
  EXPECT_EQ(*k.roof.tensor_flop, 2.0 * 4096 * 4096 * 4096);  // bf16 GEMM, 2 M N K
  EXPECT_EQ(k.roof.tensor_type, "hgmma_src_bf16_dst_fp32_sparsity_off");
  // The dense wgmma roof (540,672 ops/cycle at the recorded 1.603 GHz), as ncu reports it.
  EXPECT_NEAR(*k.roof.peak_tensor_flop_per_s / 1e12, 866.85, 0.01);
  EXPECT_NEAR(*k.roof.compute_pct_of_peak, 88.90, 0.01);
  EXPECT_EQ(k.occ.limiters, (std::vector<std::string>{"registers", "shared_mem"}));
  EXPECT_EQ(k.cross_check.ncu_class, "compute");
  EXPECT_TRUE(k.cross_check.agrees);
  for (const auto& r : k.recommendations) EXPECT_EQ(r.backend, "cutlass");
}

TEST(H200Fixtures, HistogramReportsBothKernelsOfTheCall) {
  const auto kernels = diagnose_case("histogram");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].kernel_name, "zero_kernel(int *, int)");
  EXPECT_EQ(kernels[0].verdict.cls, bottleneck::launch);
  EXPECT_EQ(*kernels[0].launch.blocks, 1.0);
  EXPECT_EQ(kernels[1].verdict.cls, bottleneck::launch);
  EXPECT_EQ(*kernels[1].launch.waves_per_sm, 0.97);
  EXPECT_EQ(*kernels[1].launch.blocks, 1024.0);
  for (const auto& k : kernels) {
    EXPECT_TRUE(k.cross_check.agrees) << k.kernel_name;
    EXPECT_EQ(k.cross_check.ncu_class, "launch");
  }
}

TEST(H200Fixtures, TritonSoftmaxAchievesLessOccupancyThanItCould) {
  const auto k = diagnose_case("triton_softmax", "triton").at(0);
  EXPECT_EQ(k.kernel_name, "softmax_rows");
  EXPECT_EQ(k.verdict.cls, bottleneck::occupancy);
  EXPECT_EQ(*k.occ.theoretical_pct, 100.0);
  EXPECT_NEAR(*k.occ.achieved_pct, 75.02, 1e-9);
  EXPECT_TRUE(k.cross_check.agrees);
  EXPECT_EQ(recommendation_ids(k).at(0), "triton-num-warps-stages-occupancy");
}

TEST(H200Fixtures, AutoScaledTorchExportWithTextDetails) {
  const auto dir = std::filesystem::path(KOPT_TEST_DATA_DIR) / "ncu";
  const auto raw = profile::parse_raw_csv(read_text_file(dir / "torch_reduce_full_raw.csv"), "torch");
  const auto details = profile::parse_details(read_text_file(dir / "torch_reduce_full_details.txt"));
  const auto k = diagnose(raw, details, "cuda").at(0);
  EXPECT_EQ(k.verdict.cls, bottleneck::launch);  // 512 blocks of 512 threads: 0.97 waves
  EXPECT_NEAR(*k.launch.duration_ns, 12224.0, 1e-6);
  EXPECT_NEAR(*k.roof.dram_pct_of_peak, 28.7, 0.1);
  EXPECT_EQ(k.sol.memory_unit, "dram");
  EXPECT_FALSE(k.cross_check.available);  // the printed page names no rules
  ASSERT_FALSE(k.ncu_advice.empty());
  EXPECT_EQ(k.ncu_advice[0].estimated_speedup_pct, 56.88);  // largest estimate first
  EXPECT_FALSE(k.roof.notes.empty());  // scalar counts derived from rates
}

}  // namespace
}  // namespace kopt::analyze
