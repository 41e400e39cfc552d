#include "compile/compiler.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "support/kopt_process.h"

namespace kopt::compile {
namespace {
namespace fs = std::filesystem;

constexpr const char* scale_kernel = R"(
#include "scale.h"
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= SCALE_FACTOR;
}
extern "C" void solve(float* x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }
)";

// Each test gets its own compile cache.
class CompilerTest : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("KOPT_CACHE_DIR", (m_cache.path()).c_str(), 1); }
  void TearDown() override { ::unsetenv("KOPT_CACHE_DIR"); }

  compile_request request_for(const fs::path& source) const {
    compile_request request;
    request.kernel_file = source;
    return request;
  }

  testing::scratch_dir m_cache;
  testing::scratch_dir m_sources;
};

TEST_F(CompilerTest, SecondCompileIsACacheHit) {
  const auto source = m_sources.write("scale.cu", scale_kernel);
  m_sources.write("scale.h", "#define SCALE_FACTOR 2.0f\n");
  const compile_result first = compile_kernel(request_for(source));
  ASSERT_EQ(first.status, compile_status::built) << first.compiler_output;
  EXPECT_TRUE(fs::exists(first.library));
  EXPECT_EQ(first.arch.name, "sm_90a");
  ASSERT_EQ(first.kernels.size(), 1u);
  EXPECT_EQ(first.kernels[0].name, "scale(float*, int)");
  EXPECT_GT(first.kernels[0].registers, 0);

  const compile_result second = compile_kernel(request_for(source));
  EXPECT_EQ(second.status, compile_status::cache_hit);
  EXPECT_EQ(second.library, first.library);
  EXPECT_EQ(second.kernels.size(), 1u);
  EXPECT_EQ(second.command, first.command);
  EXPECT_LT(second.elapsed, first.elapsed);
}

TEST_F(CompilerTest, EditingAnIncludedHeaderRebuilds) {
  const auto source = m_sources.write("scale.cu", scale_kernel);
  m_sources.write("scale.h", "#define SCALE_FACTOR 2.0f\n");
  const compile_result first = compile_kernel(request_for(source));
  m_sources.write("scale.h", "#define SCALE_FACTOR 3.0f\n");
  const compile_result second = compile_kernel(request_for(source));
  EXPECT_EQ(second.status, compile_status::built);
  EXPECT_NE(second.cache_key, first.cache_key);
}

TEST_F(CompilerTest, DefinesAndArchArePartOfTheKey) {
  const auto source = m_sources.write("scale.cu", scale_kernel);
  m_sources.write("scale.h", "#ifndef SCALE_FACTOR\n#define SCALE_FACTOR 2.0f\n#endif\n");
  compile_request request = request_for(source);
  const compile_result plain = compile_kernel(request);
  request.defines = {"SCALE_FACTOR=4.0f"};
  const compile_result defined = compile_kernel(request);
  EXPECT_NE(defined.cache_key, plain.cache_key);
  EXPECT_NE(std::find(defined.command.begin(), defined.command.end(), "-DSCALE_FACTOR=4.0f"), defined.command.end());
  request.arch = "sm_80";
  const compile_result ampere = compile_kernel(request);
  EXPECT_EQ(ampere.arch.name, "sm_80");
  EXPECT_NE(ampere.cache_key, defined.cache_key);
  EXPECT_EQ(ampere.kernels.at(0).arch, "sm_80");
}

TEST_F(CompilerTest, ACompileErrorIsAResultAndLeavesNothingInTheCache) {
  const auto source = m_sources.write("broken.cu", "extern \"C\" void solve(float* x) { not_declared(x); }\n");
  const compile_result result = compile_kernel(request_for(source));
  EXPECT_EQ(result.status, compile_status::failed);
  EXPECT_EQ(result.failure_reason, "nvcc exit code 2");
  EXPECT_NE(result.compiler_output.find("identifier \"not_declared\" is undefined"), std::string::npos);
  for (const auto& entry : fs::recursive_directory_iterator(m_cache.path())) {
    EXPECT_EQ(entry.path().filename().string().rfind(".build-", 0), std::string::npos)
        << "left a build folder behind: " << entry.path();
    EXPECT_NE(entry.path().extension(), ".so");
  }
}

TEST_F(CompilerTest, MissingSourceIsAUsageError) {
  EXPECT_THROW(compile_kernel(request_for(m_sources.path() / "absent.cu")), error);
}

}  // namespace
}  // namespace kopt::compile
