// Class 25 (reference precision mismatch) on the CPU: each side's settings from what it has (a
// Python side's torch facts, an nvcc build's flags and source), and the comparison that flags any
// difference, a setting one side lacks taken at its default.
#include "pipeline/precision_settings.h"

#include <gtest/gtest.h>

namespace kopt::pipeline {
namespace {

harness::torch_facts torch_defaults() {
  harness::torch_facts t;
  t.version = "2.11.0";
  t.cuda = "13.0";
  t.float32_matmul_precision = "highest";
  t.tf32_matmul = false;
  t.tf32_cudnn = true;
  t.fp16_reduced_precision_reduction = true;
  t.bf16_reduced_precision_reduction = true;
  return t;
}

// kopt's own nvcc flags (compile/compiler.cpp): none of them changes float semantics.
const std::vector<std::string> kopt_flags = {"/usr/local/cuda/bin/nvcc", "-std=c++17", "-O3", "-lineinfo", "-shared",
                                             "-Xcompiler", "-fPIC", "--resource-usage", "-I/src"};

std::vector<std::string> with(std::vector<std::string> flags, const std::vector<std::string>& more) {
  flags.insert(flags.end(), more.begin(), more.end());
  return flags;
}

TEST(PrecisionSettings, TwoSidesAtTheirDefaultsAgree) {
  const precision_settings python = torch_side_precision(torch_defaults());
  const precision_settings cuda = nvcc_side_precision(kopt_flags, "__global__ void k() {}", std::nullopt);
  EXPECT_TRUE(precision_differences(python, python).empty());
  EXPECT_TRUE(precision_differences(cuda, python).empty());
  EXPECT_TRUE(precision_differences(python, cuda).empty());
  EXPECT_FALSE(precision_warning(compare_precision(cuda, python)).has_value());
}

TEST(PrecisionSettings, Tf32InTheKernelOnlyIsFlaggedWithBothValues) {
  harness::torch_facts kernel = torch_defaults();
  kernel.tf32_matmul = true;
  kernel.float32_matmul_precision = "high";
  const precision_record record =
      compare_precision(torch_side_precision(kernel), torch_side_precision(torch_defaults()));
  ASSERT_EQ(record.differences.size(), 2U);
  EXPECT_EQ(record.differences[0], "TF32 matmul: kernel on, reference off");
  EXPECT_EQ(record.differences[1], "float32 matmul precision: kernel high, reference highest");
  const auto warning = precision_warning(record);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->rfind("precision mismatch: ", 0), 0U) << *warning;
  EXPECT_NE(warning->find("TF32 matmul: kernel on, reference off"), std::string::npos) << *warning;
}

TEST(PrecisionSettings, TheReverseIsFlaggedToo) {
  harness::torch_facts reference = torch_defaults();
  reference.tf32_cudnn = false;
  reference.fp16_reduced_precision_reduction = false;
  const auto differences =
      precision_differences(torch_side_precision(torch_defaults()), torch_side_precision(reference));
  ASSERT_EQ(differences.size(), 2U);
  EXPECT_EQ(differences[0], "cuDNN TF32: kernel on, reference off");
  EXPECT_EQ(differences[1], "fp16 reduced-precision reduction: kernel on, reference off");
}

TEST(PrecisionSettings, TheTf32OverrideVariableIsComparedOnBothKindsOfSide) {
  const precision_settings cuda = nvcc_side_precision(kopt_flags, "", std::string("0"));
  const auto differences = precision_differences(cuda, torch_side_precision(torch_defaults()));
  ASSERT_EQ(differences.size(), 1U);
  EXPECT_EQ(differences[0], "NVIDIA_TF32_OVERRIDE: kernel 0, reference unset");
}

TEST(PrecisionSettings, FastMathFlagsAreReadInEveryWayNvccTakesThem) {
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--use_fast_math"}, {"-use_fast_math"}, {"-D__USE_FAST_MATH__"},
        {"-D", "__USE_FAST_MATH__"}, {"-DX=1,__USE_FAST_MATH__"}, {"--define-macro=__USE_FAST_MATH__"}, {"-D__USE_FAST_MATH__=0"}}) {
    const precision_settings s = nvcc_side_precision(with(kopt_flags, flags), "", std::nullopt);
    EXPECT_EQ(s.use_fast_math, std::optional(true)) << flags.front();
    EXPECT_EQ(s.ftz, std::optional(true)) << flags.front();
    EXPECT_EQ(s.prec_div, std::optional(false)) << flags.front();
    EXPECT_EQ(s.prec_sqrt, std::optional(false)) << flags.front();
  }
  const precision_settings s =
      nvcc_side_precision(with(kopt_flags, {"-ftz=true", "--prec-div=false", "-prec-sqrt", "false", "--fmad=false"}), "",
                          std::nullopt);
  EXPECT_EQ(s.use_fast_math, std::optional(false));
  EXPECT_EQ(s.ftz, std::optional(true));
  EXPECT_EQ(s.prec_div, std::optional(false));
  EXPECT_EQ(s.prec_sqrt, std::optional(false));
  EXPECT_EQ(s.fmad, std::optional(false));
}

TEST(PrecisionSettings, ADefinitionOtherThanTheFlagsMacrosChangesNothing) {
  const precision_settings s =
      nvcc_side_precision(with(kopt_flags, {"-DUSE_FAST=1", "-DBLOCK=256", "-D__CUDA_FTZ=0"}), "", std::nullopt);
  EXPECT_EQ(s.use_fast_math, std::optional(false));
  EXPECT_TRUE(precision_differences(s, torch_side_precision(torch_defaults())).empty());
}

TEST(PrecisionSettings, AFastMathDefinitionInTheSourceCounts) {
  const precision_settings s = nvcc_side_precision(
      kopt_flags, "// kopt: x[N] y[N]\n  #  define __USE_FAST_MATH__\n#include <cuda_runtime.h>\n", std::nullopt);
  EXPECT_EQ(s.use_fast_math, std::optional(true));
  const precision_settings ftz_only =
      nvcc_side_precision(kopt_flags, "#define __CUDA_FTZ 1\n", std::nullopt);
  EXPECT_EQ(ftz_only.use_fast_math, std::optional(false));
  EXPECT_EQ(ftz_only.ftz, std::optional(true));
  // Named in a comment or another macro's name: not a definition.
  const precision_settings mention =
      nvcc_side_precision(kopt_flags, "// no #define __USE_FAST_MATH__ here\n#define __USE_FAST_MATH__X 1\n", std::nullopt);
  EXPECT_EQ(mention.use_fast_math, std::optional(false));
}

TEST(PrecisionSettings, AFastMathKernelAgainstAPythonReferenceIsFlagged) {
  const precision_record record = compare_precision(
      nvcc_side_precision(with(kopt_flags, {"-D__USE_FAST_MATH__"}), "", std::nullopt),
      torch_side_precision(torch_defaults()));
  ASSERT_EQ(record.differences.size(), 4U);
  EXPECT_EQ(record.differences[0], "fast math: kernel on, reference off");
  EXPECT_EQ(record.differences[1], "flush to zero: kernel on, reference off");
  EXPECT_EQ(record.differences[2], "IEEE division: kernel off, reference on");
  EXPECT_EQ(record.differences[3], "IEEE square root: kernel off, reference on");
  EXPECT_EQ(record.kernel.source, "nvcc");
  EXPECT_EQ(record.reference.source, "torch");
}

TEST(PrecisionSettings, BothBuildsWithFastMathAgree) {
  const precision_settings fast = nvcc_side_precision(with(kopt_flags, {"-D__USE_FAST_MATH__"}), "", std::nullopt);
  EXPECT_TRUE(precision_differences(fast, fast).empty());
}

TEST(PrecisionSettings, TheRecordIsADocument) {
  const precision_record record =
      compare_precision(nvcc_side_precision(kopt_flags, "", std::nullopt), torch_side_precision(torch_defaults()));
  const json document = to_document(record);
  EXPECT_EQ(document["kernel"]["source"], "nvcc");
  EXPECT_TRUE(document["kernel"]["tf32_matmul"].is_null());
  EXPECT_EQ(document["reference"]["tf32_cudnn"], true);
  EXPECT_EQ(from_document<precision_record>(document).reference.float32_matmul_precision,
            std::optional<std::string>("highest"));
}

}  // namespace
}  // namespace kopt::pipeline
