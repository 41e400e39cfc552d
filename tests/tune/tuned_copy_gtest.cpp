// A CUDA kernel's copy that kopt tune writes into its run folder (the fastest two compared in
// turns, `<stem>_tuned.cu`) builds there with the real nvcc: its `#include "..."` of the kernel's
// own headers name them where they are, and the compile cache still follows those headers.
#include <gtest/gtest.h>

#include "compile/compiler.h"
#include "core/files.h"
#include "support/kopt_process.h"
#include "tune/tuned_source.h"

namespace kopt::tune {
namespace {
namespace fs = std::filesystem;

constexpr const char* scale_kernel = R"(// kopt: x[n]
// kopt: tune(FACTOR, 2, 3)
#include <cuda_runtime.h>
#include "common/scale.cuh"
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = scaled(x[i]);
}
extern "C" void solve(float* x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }
)";

class TunedCopy : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("KOPT_CACHE_DIR", m_cache.path().c_str(), 1); }
  void TearDown() override { ::unsetenv("KOPT_CACHE_DIR"); }

  static compile::compile_result build(const fs::path& file) {
    compile::compile_request request;
    request.kernel_file = file;
    return compile::compile_kernel(request);
  }

  testing::scratch_dir m_cache;
  testing::scratch_dir m_project;
  testing::scratch_dir m_runs;
};

TEST_F(TunedCopy, ACudaCopyInTheRunFolderBuildsWithTheKernelsOwnHeaders) {
  const fs::path kernel = m_project.write("scale.cu", scale_kernel);
  m_project.write("common/scale.cuh", "__device__ float scaled(float v) { return v * FACTOR; }\n");
  const kernel::tune_configuration three{{{"FACTOR", 3}}};

  // Without the header's path the copy cannot build where it is written: nvcc looks beside it.
  const fs::path bare =
      m_runs.write("scale_first.cu", tuned_source(scale_kernel, three, kernel::backend::cuda));
  const compile::compile_result unfound = build(bare);
  EXPECT_EQ(unfound.status, compile::compile_status::failed);
  EXPECT_NE(unfound.compiler_output.find("common/scale.cuh"), std::string::npos) << unfound.compiler_output;

  const fs::path copy =
      m_runs.write("scale_tuned.cu", tuned_copy_source(scale_kernel, three, kernel::backend::cuda, kernel));
  const std::string text = read_text_file(copy, "tuned copy");
  EXPECT_NE(text.find("#define FACTOR 3"), std::string::npos) << text;
  EXPECT_NE(text.find("#include <cuda_runtime.h>"), std::string::npos) << "a system include stays as it was";
  const compile::compile_result built = build(copy);
  ASSERT_EQ(built.status, compile::compile_status::built) << built.compiler_output;

  // A header of the same name in the run folder is not the kernel's, and is not taken.
  m_runs.write("common/scale.cuh", "#error not the kernel's header\n");
  EXPECT_EQ(build(copy).status, compile::compile_status::cache_hit);

  // Editing the kernel's header builds the copy again.
  m_project.write("common/scale.cuh", "__device__ float scaled(float v) { return v * FACTOR + 1.0f; }\n");
  const compile::compile_result rebuilt = build(copy);
  EXPECT_EQ(rebuilt.status, compile::compile_status::built) << rebuilt.compiler_output;
  EXPECT_NE(rebuilt.cache_key, built.cache_key);
}

}  // namespace
}  // namespace kopt::tune
