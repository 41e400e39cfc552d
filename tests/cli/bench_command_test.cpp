// Whole-program tests of `kopt bench` that need no GPU: bad input is refused before any
// measuring, with exit code 2 and a first line that names the problem.
#include <gtest/gtest.h>

#include "support/kopt_process.h"

namespace kopt {
namespace {
using testing::first_line;
using testing::run_kopt;

const std::map<std::string, std::string> no_gpu = {{"CUDA_VISIBLE_DEVICES", ""}};

std::string example(const std::string& name) { return (testing::source_dir() / "examples" / name).string(); }

TEST(BenchCommand, NoGpuIsAnEnvironmentError) {
  const auto r = run_kopt({"bench", example("vector_add.cu"), "--ref", example("vector_add_ref.cu"), "--N=1024"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: no GPU to time on (", 0), 0u) << r.stderr_text;
  EXPECT_NE(first_line(r.stderr_text).find("kopt bench needs an NVIDIA GPU"), std::string::npos);
}

TEST(BenchCommand, MissingDimensionIsNamedBeforeAnythingRuns) {
  const auto r = run_kopt({"bench", example("vector_add.cu")}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("missing dimension"), std::string::npos) << r.stderr_text;
  EXPECT_NE(first_line(r.stderr_text).find("--N=VALUE"), std::string::npos) << r.stderr_text;
}

TEST(BenchCommand, OptionsOutOfRangeAreNamedBeforeTheGpuIsNeeded) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--warmup=-3"}, "kopt: error: kopt bench: --warmup: -3 is too few: give 0 or more (calls)"},
      {{"--repeat", "0"}, "kopt: error: kopt bench: --repeat: 0 is too few: give 1 or more (samples)"},
      {{"--timeout", "0"},
       "kopt: error: kopt bench: --timeout: 0 is not above 0: give a positive number (seconds)"},
      {{"--max-seconds", "-1"},
       "kopt: error: kopt bench: --max-seconds: -1 is not above 0: give a positive number"},
      {{"--min-seconds=-0.1"},
       "kopt: error: kopt bench: --min-seconds: -0.1 is too few: give 0 or more (seconds)"},
      {{"--min-seconds", "3", "--max-seconds", "2"},
       "kopt: error: sampling's minimum time (3 s, --min-seconds) is not between 0 and its limit (2 s, "
       "--max-seconds): give a minimum at or below the limit"},
  };
  for (const auto& [flags, expected] : cases) {
    std::vector<std::string> args = {"bench", example("vector_add.cu"), "--N=1024"};
    args.insert(args.end(), flags.begin(), flags.end());
    const auto r = run_kopt(args, no_gpu);
    EXPECT_EQ(r.exit_code, 2) << flags[0];
    EXPECT_EQ(first_line(r.stderr_text).rfind(expected, 0), 0u) << r.stderr_text;
  }
}

TEST(BenchCommand, MissingReferenceFile) {
  const auto r = run_kopt({"bench", example("vector_add.cu"), "--ref", "/nonexistent/ref.cu", "--N=1024"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: reference file not found: /nonexistent/ref.cu (check the path)");
}

TEST(BenchCommand, PythonReferenceIsCheckedThenNeedsTheGpu) {
  // A valid .py reference passes the check (no torch import) and the run stops at the GPU.
  const auto r = run_kopt({"bench", example("vector_add.cu"), "--ref", example("vector_add_ref.py"), "--N=1024"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: no GPU to time on", 0), 0u) << r.stderr_text;
}

TEST(BenchCommand, PythonReferenceWithoutReferenceFunction) {
  testing::scratch_dir dir;
  const auto ref = dir.write("ref.py", "import math\n\ndef expected(A, B, C, N):\n    C.copy_(A + B)\n");
  const auto r = run_kopt({"bench", example("vector_add.cu"), "--ref", ref.string(), "--N=1024"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: the reference " + ref.string() + " defines no reference()", 0), 0u)
      << r.stderr_text;
}

TEST(BenchCommand, PythonReferenceThatDoesNotParse) {
  testing::scratch_dir dir;
  const auto ref = dir.write("ref.py", "def reference(**kw):\n    return (\n");
  const auto r = run_kopt({"bench", example("vector_add.cu"), "--ref", ref.string(), "--N=1024"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("does not parse: line"), std::string::npos) << r.stderr_text;
}

TEST(BenchCommand, ReferenceOfAnotherKind) {
  testing::scratch_dir dir;
  const auto ref = dir.write("ref.txt", "C = A + B\n");
  const auto r = run_kopt({"bench", example("vector_add.cu"), "--ref", ref.string(), "--N=1024"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("give a Python module (.py with reference())"), std::string::npos)
      << r.stderr_text;
}

TEST(BenchCommand, PythonToolkitFlagStyleIsAccepted) {
  // --ref=, --M=4096 style dimensions, --warmup/--repeat/--seed/--atol/--rtol: parsed, and the
  // run stops only at the missing GPU.
  const auto r = run_kopt({"bench", example("softmax_block.cu"), "--ref=" + example("vector_add_ref.cu"), "--rows=4096",
                           "--cols=1024", "--warmup=5", "--repeat=20", "--seed=3", "--atol=1e-5", "--rtol=1e-4"},
                          no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: no GPU to time on", 0), 0u) << r.stderr_text;
}

// ---------------------------------------------------------------- Triton kernels

TEST(BenchCommandTriton, ModuleIsCheckedThenNeedsTheGpu) {
  // The Python toolkit's command line: backend inferred from .py, --ref=, --rows= --cols=.
  const auto r = run_kopt({"bench", example("triton_softmax.py"), "--ref=" + example("softmax_ref.py"), "--rows=4096",
                           "--cols=1024"},
                          no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: no GPU to time on", 0), 0u) << r.stderr_text;
}

TEST(BenchCommandTriton, ModuleWithoutRunKernelIsNamedBeforeTheGpu) {
  testing::scratch_dir dir;
  const auto kernel = dir.write("k.py", "def setup(*, n, seed=0):\n    return {}\n");
  const auto r = run_kopt({"bench", kernel.string(), "--n=16"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: the Triton kernel " + kernel.string() +
                                           " defines no run_kernel(): a Triton module needs setup(**dims, seed=...) "
                                           "returning {\"inputs\": {...}, \"outputs\": [...]} (or a reference with one) and run_kernel(**inputs)")
      << r.stderr_text;
}

TEST(BenchCommandTriton, CuFileWithTritonBackendIsRefused) {
  const auto r = run_kopt({"bench", example("vector_add.cu"), "--backend=triton", "--N=16"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("--backend=triton needs a .py module with setup() and run_kernel()"),
            std::string::npos)
      << r.stderr_text;
}

TEST(BenchCommandTriton, NativeReferenceIsRefused) {
  const auto r = run_kopt({"bench", example("triton_softmax.py"), "--ref", example("softmax_naive.cu"), "--rows=4",
                           "--cols=4"},
                          no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("a Triton kernel needs a Python reference"), std::string::npos)
      << r.stderr_text;
}


}  // namespace
}  // namespace kopt
