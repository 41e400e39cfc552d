// Class 25 in kopt's Python runner on the CPU: what the runner reports of torch's precision
// settings is the least precise they were while the module ran, so a module that turns TF32 on
// only inside its calls (and back off before returning) is reported with TF32 on. Needs python3
// with torch (scripts/setup.sh).
#include <cstring>
#include <map>

#include <gtest/gtest.h>

#include "core/python.h"
#include "harness/python_reference.h"
#include "support/kopt_process.h"

namespace kopt::harness {
namespace {

constexpr const char* copy_kernel = R"(
// kopt: A[N] C[N]
extern "C" void solve(const float* A, float* C, int N) {}
)";

// The runner's answer for a reference module whose reference() copies A into C after `body`.
torch_facts reported_for(const std::string& body) {
  kopt::testing::scratch_dir dir;
  const kernel::kernel_plan plan =
      kernel::plan_kernel("copy.cu", copy_kernel, std::nullopt, {{"N", "4", false}}, std::nullopt, {});
  std::vector<std::byte> a(4 * sizeof(float));
  std::map<std::uint64_t, buffer_contents> seeds{{0, {a, {}}}};
  python_reference_request request;
  request.python = python_command();
  request.runner = kopt::testing::source_dir() / "python" / "kopt_runner.py";
  request.module = dir.write("ref.py", "import os\nimport torch\n\ndef reference(*, A, C, N, **_):\n" + body +
                                           "    C[:N].copy_(A[:N])\n");
  request.work_dir = dir.path() / "work";
  request.device = "cpu";
  request.plan = &plan;
  request.seeds = &seeds;
  return run_python_reference(request).answer.torch;
}

TEST(PrecisionWatch, AModuleThatChangesNothingIsReportedAtTorchsDefaults) {
  const torch_facts t = reported_for("");
  EXPECT_EQ(t.float32_matmul_precision, "highest");
  EXPECT_FALSE(t.tf32_matmul);
  EXPECT_TRUE(t.tf32_cudnn);
  EXPECT_EQ(t.fp16_reduced_precision_reduction, std::optional(true));
  EXPECT_EQ(t.precision_changed, std::optional(false));
}

TEST(PrecisionWatch, Tf32SwitchedOnAndBackOffInsideACallIsReportedOn) {
  const torch_facts t = reported_for(
      "    torch.backends.cuda.matmul.allow_tf32 = True\n"
      "    torch.set_float32_matmul_precision('medium')\n"
      "    torch.backends.cuda.matmul.allow_tf32 = False\n"
      "    torch.set_float32_matmul_precision('highest')\n");
  EXPECT_TRUE(t.tf32_matmul);
  EXPECT_EQ(t.float32_matmul_precision, "medium");
  EXPECT_EQ(t.precision_changed, std::optional(true));
}

TEST(PrecisionWatch, TorchsNewerPrecisionApiIsSeenToo) {
  const torch_facts t = reported_for(
      "    torch.backends.cuda.matmul.fp32_precision = 'tf32'\n"
      "    torch.backends.cuda.matmul.fp32_precision = 'ieee'\n");
  EXPECT_TRUE(t.tf32_matmul);
  EXPECT_EQ(t.precision_changed, std::optional(true));
}

TEST(PrecisionWatch, TheTf32OverrideVariableSetByTheModuleIsReported) {
  const torch_facts t = reported_for("    os.environ['NVIDIA_TF32_OVERRIDE'] = '1'\n");
  EXPECT_EQ(t.nvidia_tf32_override, std::optional<std::string>("1"));
}

}  // namespace
}  // namespace kopt::harness
