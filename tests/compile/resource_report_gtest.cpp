#include "compile/resource_report.h"

#include <gtest/gtest.h>

#include "core/files.h"

namespace kopt::compile {
namespace {

std::string fixture(const std::string& name) {
  return read_text_file(std::string(KOPT_TEST_DATA_DIR) + "/ptxas/" + name, "fixture");
}

const kernel_resources& by_name(const std::vector<kernel_resources>& kernels, const std::string& name) {
  for (const auto& k : kernels) {
    if (k.name == name) return k;
  }
  throw std::runtime_error("no kernel " + name);
}

// Real `nvcc --resource-usage` output of four kernels (sm_90a, CUDA 13.0).
TEST(ResourceReport, ReadsEveryEntryFunction) {
  const auto kernels = parse_ptxas_resource_usage(fixture("mixed_kernels.txt"));
  ASSERT_EQ(kernels.size(), 4u);

  const auto& small = by_name(kernels, "small(float const*, float*, int)");
  EXPECT_EQ(small.mangled_name, "_Z5smallPKfPfi");
  EXPECT_EQ(small.arch, "sm_90a");
  EXPECT_EQ(small.registers, 10);
  EXPECT_EQ(small.static_shared_bytes, 0);
  EXPECT_FALSE(small.uses_local_memory());

  const auto& smem = by_name(kernels, "smem_kernel(float const*, float*, int)");
  EXPECT_EQ(smem.registers, 14);
  EXPECT_EQ(smem.barriers, 1);
  EXPECT_EQ(smem.static_shared_bytes, 4096);

  const auto& spill = by_name(kernels, "spill(float*, int)");
  EXPECT_EQ(spill.registers, 32);
  EXPECT_EQ(spill.stack_frame_bytes, 1024);
  EXPECT_EQ(spill.cumulative_stack_bytes, 1024);
  EXPECT_TRUE(spill.uses_local_memory());

  const auto& templated = by_name(kernels, "void tmpl<3>(float*)");
  EXPECT_EQ(templated.registers, 8);
}

TEST(ResourceReport, ReadsACutlassHopperGemm) {
  const auto kernels = parse_ptxas_resource_usage(fixture("cutlass_gemm.txt"));
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].registers, 168);
  EXPECT_EQ(kernels[0].barriers, 2);
  EXPECT_EQ(kernels[0].spill_store_bytes, 0);
  // The instantiation is too deep for the demangler; the readable prefix remains.
  EXPECT_EQ(kernels[0].name, "cutlass::device_kernel<...>");
  EXPECT_EQ(kernels[0].mangled_name.rfind("_ZN7cutlass13device_kernel", 0), 0u);
}

TEST(ResourceReport, ReadsSpillCounts) {
  const std::string text =
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "    48 bytes stack frame, 44 bytes spill stores, 40 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 0 barriers, 48 bytes cumulative stack size, 368 bytes cmem[0]\n";
  const auto kernels = parse_ptxas_resource_usage(text);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].registers, 255);
  EXPECT_EQ(kernels[0].stack_frame_bytes, 48);
  EXPECT_EQ(kernels[0].spill_store_bytes, 44);
  EXPECT_EQ(kernels[0].spill_load_bytes, 40);
  EXPECT_EQ(kernels[0].constant_bytes, 368);
}

TEST(ResourceReport, IgnoresDeviceFunctionProperties) {
  // A non-entry function's properties must not land on the kernel compiled before it.
  const std::string text =
      "ptxas info    : Function properties for _Z6helperf\n"
      "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers, used 0 barriers\n";
  const auto kernels = parse_ptxas_resource_usage(text);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].stack_frame_bytes, 0);
}

TEST(ResourceReport, DemanglesOrFallsBackToTheQualifiedName) {
  EXPECT_EQ(demangle("_Z5smallPKfPfi"), "small(float const*, float*, int)");
  EXPECT_EQ(demangle("_ZN2ns6kernelIiEEvv_broken"), "ns::kernel<...>");
  EXPECT_EQ(demangle("plain_c_kernel"), "plain_c_kernel");
}

TEST(ResourceReport, JsonRoundTrip) {
  const auto kernels = parse_ptxas_resource_usage(fixture("mixed_kernels.txt"));
  for (const auto& k : kernels) {
    const kernel_resources back = kernel_resources_from_json(to_json(k));
    EXPECT_EQ(back.name, k.name);
    EXPECT_EQ(back.registers, k.registers);
    EXPECT_EQ(back.stack_frame_bytes, k.stack_frame_bytes);
  }
}

}  // namespace
}  // namespace kopt::compile
