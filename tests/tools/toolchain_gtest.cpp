#include "tools/toolchain.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kopt::tools {
namespace {

TEST(Toolchain, ParsesNvccVersion) {
  const std::string text =
      "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2025 NVIDIA Corporation\n"
      "Built on Wed_Jul_16_07:30:01_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\n"
      "Build cuda_13.0.r13.0/compiler.36424714_0\n";
  EXPECT_EQ(parse_nvcc_version(text), "13.0.88");
  EXPECT_EQ(parse_nvcc_version("garbage"), "");
}

TEST(Toolchain, ParsesNcuVersion) {
  const std::string text =
      "NVIDIA (R) Nsight Compute Command Line Profiler\nCopyright (c) 2018-2025 NVIDIA Corporation\n"
      "Version 2025.3.1.0 (build 36398880) (public-release)\n";
  EXPECT_EQ(parse_ncu_version(text), "2025.3.1.0");
}

TEST(Toolchain, MissingNvccNamesTheFlag) {
  try {
    require_nvcc("/nonexistent/nvcc");
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "nvcc not found at --nvcc-bin=/nonexistent/nvcc: pass the path of an existing nvcc");
  }
}

TEST(Toolchain, FindsTheInstalledNvcc) {
  const tool_search found = find_nvcc("");
  ASSERT_TRUE(found.tool.has_value()) << "this machine is expected to have the CUDA toolkit";
  EXPECT_FALSE(found.tool->version.empty());
}

}  // namespace
}  // namespace kopt::tools
