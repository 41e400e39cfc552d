#include "kernel/buffer_plan.h"

#include <gtest/gtest.h>

#include "kernel/backend.h"
#include "kernel_test_support.h"

namespace kopt::kernel {
namespace {
using testing::error_headline;

const std::vector<std::string> own_flags = {"backend", "dim", "json", "ptr-size", "seed"};

kernel_plan plan(std::string_view source, const std::vector<dimension_arg>& dims,
                 std::optional<int64_t> ptr_size = std::nullopt, std::string file = "k.cu") {
  return plan_kernel(file, source, std::nullopt, dims, ptr_size, own_flags);
}

std::string plan_error(std::string_view source, const std::vector<dimension_arg>& dims,
                       std::optional<int64_t> ptr_size = std::nullopt) {
  return error_headline([&] { plan(source, dims, ptr_size); });
}

constexpr std::string_view matmul =
    "// kopt: A[M*K] B[K*N] C[M*N]\n"
    "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K) {}\n";

constexpr std::string_view unannotated =
    "extern \"C\" void solve(const float* x, float* y, int M, int N, int K) {}\n";

TEST(BufferPlan, AnnotatedSizes) {
  const auto p = plan(matmul, {{"M", "64"}, {"N", "32"}, {"K", "16"}});
  ASSERT_EQ(p.buffers.size(), 3u);
  EXPECT_EQ(p.buffers[0].param.name, "A");
  EXPECT_EQ(p.buffers[0].elements, 64 * 16);
  EXPECT_EQ(p.buffers[0].bytes, 64 * 16 * 4);
  EXPECT_EQ(p.buffers[0].rule.kind, size_rule_kind::annotation);
  EXPECT_EQ(p.buffers[0].rule.expression, "M*K");
  EXPECT_EQ(p.buffers[0].rule.line, 1);
  EXPECT_EQ(p.buffers[0].rule.description, "annotation A[M*K] (line 1)");
  EXPECT_EQ(p.buffers[1].elements, 16 * 32);
  EXPECT_EQ(p.buffers[2].elements, 64 * 32);
  EXPECT_EQ(p.total_bytes, (64 * 16 + 16 * 32 + 64 * 32) * 4);
  EXPECT_TRUE(p.has_annotation);
  EXPECT_TRUE(p.notes.empty());
}

TEST(BufferPlan, PtrSizeForUnannotatedBuffers) {
  const auto p = plan(unannotated, {{"M", "3"}, {"N", "5"}, {"K", "7"}}, 1000);
  EXPECT_EQ(p.buffers[0].elements, 1000);
  EXPECT_EQ(p.buffers[0].rule.kind, size_rule_kind::ptr_size_flag);
  EXPECT_EQ(p.buffers[0].rule.description, "--ptr-size=1000");
}

TEST(BufferPlan, AnnotationWinsOverPtrSize) {
  const auto p = plan(matmul, {{"M", "2"}, {"N", "2"}, {"K", "2"}}, 1000);
  EXPECT_EQ(p.buffers[0].elements, 4);
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0], "--ptr-size is not used: every buffer has an annotated size");
}

TEST(BufferPlan, DefaultWithoutIntegerScalars) {
  const auto p = plan("extern \"C\" void solve(const float* x, float* y, float alpha) {}",
                      {{"alpha", "1.5"}});
  EXPECT_EQ(p.buffers[0].elements, 1'048'576);
  EXPECT_EQ(p.buffers[0].rule.kind, size_rule_kind::no_integer_scalars);
  EXPECT_EQ(p.buffers[0].rule.description, "default: no integer scalars, 1,048,576 elements");
}

TEST(BufferPlan, DefaultWithOneIntegerScalar) {
  const auto p = plan("extern \"C\" void solve(const float* x, float* y, float a, int N) {}",
                      {{"a", "1"}, {"N", "4096"}});
  EXPECT_EQ(p.buffers[1].elements, 4096);
  EXPECT_EQ(p.buffers[1].rule.kind, size_rule_kind::single_integer);
  EXPECT_EQ(p.buffers[1].rule.description, "default: the only integer scalar, N");
}

TEST(BufferPlan, DefaultProductOfTheTwoLargest) {
  const auto p = plan(unannotated, {{"M", "3"}, {"N", "5"}, {"K", "7"}});
  EXPECT_EQ(p.buffers[0].elements, 35);
  EXPECT_EQ(p.buffers[0].rule.kind, size_rule_kind::two_largest);
  EXPECT_FALSE(p.buffers[0].rule.capped);
  EXPECT_EQ(p.buffers[0].rule.description,
            "default: product of the two largest integer scalars, K*N");
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("no kopt size annotation"), std::string::npos);
}

TEST(BufferPlan, DefaultIsCappedAt256MiElements) {
  const auto p = plan(unannotated, {{"M", "1"}, {"N", "100000"}, {"K", "100000"}});
  EXPECT_EQ(p.buffers[0].elements, 268'435'456);
  EXPECT_TRUE(p.buffers[0].rule.capped);
  EXPECT_EQ(p.buffers[0].rule.description,
            "default: product of the two largest integer scalars, N*K, capped at 268,435,456");
  // A product beyond int64 is capped too, not an overflow.
  const auto huge = plan("extern \"C\" void solve(float* y, long long a, long long b) {}",
                         {{"a", "9000000000000000000"}, {"b", "9000000000000000000"}});
  EXPECT_EQ(huge.buffers[0].elements, 268'435'456);
  EXPECT_TRUE(huge.buffers[0].rule.capped);
  const auto one = plan("extern \"C\" void solve(float* y, long long n) {}", {{"n", "300000000"}});
  EXPECT_EQ(one.buffers[0].elements, 268'435'456);
}

TEST(BufferPlan, NonPositiveDefaultIsAnError) {
  EXPECT_EQ(plan_error(unannotated, {{"M", "-3"}, {"N", "-5"}, {"K", "0"}}),
            "buffer x (default: product of the two largest integer scalars, K*M) would have 0 "
            "elements: give positive dimensions, --ptr-size, or an annotation // kopt: x[COUNT]");
}

TEST(BufferPlan, AnnotatedCountErrors) {
  const std::string_view source =
      "// kopt: A[N - 10] B[M*K] C[M]\n"
      "extern \"C\" void solve(const float* A, const float* B, double* C, long long M, long long "
      "K, int N) {}\n";
  const std::vector<dimension_arg> ok = {{"M", "4"}, {"K", "4"}, {"N", "20"}};
  EXPECT_EQ(plan(source, ok).buffers[0].elements, 10);
  EXPECT_EQ(plan_error(source, {{"M", "4"}, {"K", "4"}, {"N", "10"}}),
            "k.cu:1: kopt annotation A[N - 10] gives buffer A 0 elements with N=10: a buffer "
            "needs at least one element");
  EXPECT_EQ(plan_error(source, {{"M", "4"}, {"K", "4"}, {"N", "3"}}),
            "k.cu:1: kopt annotation A[N - 10] gives buffer A -7 elements with N=3: a buffer "
            "needs at least one element");
  EXPECT_EQ(plan_error(source, {{"M", "4294967296"}, {"K", "4294967296"}, {"N", "20"}}),
            "k.cu:1: kopt annotation B[M*K]: integer overflow: 4294967296 * 4294967296 does not "
            "fit in int64 with M=4294967296, K=4294967296: use smaller dimensions or fix the "
            "expression");
  EXPECT_EQ(plan_error(source, {{"M", "2305843009213693952"}, {"K", "1"}, {"N", "20"}}),
            "k.cu:1: kopt annotation B[M*K]: 2305843009213693952 elements of 4 bytes overflow a "
            "64-bit byte count: use smaller dimensions");
}

TEST(BufferPlan, TotalBytesOverflow) {
  EXPECT_EQ(plan_error("// kopt: A[M] B[M]\nextern \"C\" void solve(float* A, float* B, long long M) {}",
                       {{"M", "1152921504606846976"}}),
            "solve()'s buffers together need more bytes than a 64-bit count holds: use smaller "
            "dimensions");
}

TEST(BufferPlan, DivisionByZeroInASize) {
  EXPECT_EQ(plan_error("// kopt: A[N / D]\nextern \"C\" void solve(float* A, int N, int D) {}",
                       {{"N", "8"}, {"D", "0"}}),
            "k.cu:1: kopt annotation A[N / D]: division by zero (8 / 0) with N=8, D=0: use smaller "
            "dimensions or fix the expression");
}

TEST(BufferPlan, Roles) {
  const auto p = plan(
      "// kopt: inout(b) in(c)\n"
      "extern \"C\" void solve(const float* a, float* b, float* c, float* d, int N) {}",
      {{"N", "8"}});
  EXPECT_EQ(p.buffers[0].role, buffer_role::in);
  EXPECT_EQ(p.buffers[0].role_source, "const pointer");
  EXPECT_EQ(p.buffers[1].role, buffer_role::inout);
  EXPECT_EQ(p.buffers[1].role_source, "annotation (line 1)");
  EXPECT_EQ(p.buffers[2].role, buffer_role::in);
  EXPECT_EQ(p.buffers[3].role, buffer_role::out);
  EXPECT_EQ(p.buffers[3].role_source, "non-const pointer");
}

TEST(BufferPlan, DefaultValuesPerElementType) {
  const auto p = plan(
      "extern \"C\" void solve(const float* f, const int* i, const unsigned char* u, "
      "const bool* b, int N) {}",
      {{"N", "8"}});
  EXPECT_EQ(p.buffers[0].values.describe(), "uniform [-1, 1)");
  EXPECT_EQ(p.buffers[1].values.describe(), "uniform [-100, 100)");
  EXPECT_EQ(p.buffers[2].values.describe(), "uniform [0, 100)");
  EXPECT_EQ(p.buffers[3].values.describe(), "one of {0, 1}");
  EXPECT_FALSE(p.buffers[0].values.from_annotation);
}

constexpr std::string_view valued =
    "// kopt: idx[E] range(idx, 0, N) mask[N] values(mask, 0, 1) noise[N] normal(noise, 0, 0.5)\n"
    "// kopt: w[N] range(w, -0.5, N)\n"
    "extern \"C\" void solve(const int* idx, const unsigned char* mask, const float* noise, "
    "const double* w, float* out, int N, int E) {}";

TEST(BufferPlan, AnnotatedValuesAreEvaluatedWithTheDimensions) {
  const auto p = plan(valued, {{"N", "50"}, {"E", "10"}});
  EXPECT_EQ(p.buffers[0].values.describe(), "uniform [0, 50)");
  EXPECT_EQ(std::get<int64_t>(p.buffers[0].values.high), 50);
  EXPECT_TRUE(p.buffers[0].values.from_annotation);
  EXPECT_EQ(p.buffers[0].values.line, 1);
  EXPECT_EQ(p.buffers[1].values.describe(), "one of {0, 1}");
  EXPECT_EQ(p.buffers[2].values.describe(), "normal(mean 0, std 0.5)");
  EXPECT_EQ(p.buffers[3].values.describe(), "uniform [-0.5, 50)");
  EXPECT_EQ(p.buffers[3].values.line, 2);
}

TEST(BufferPlan, AnnotatedValueErrors) {
  EXPECT_EQ(plan_error(valued, {{"N", "0"}, {"E", "10"}}),
            "k.cu:1: kopt annotation range(idx, 0, N) for buffer idx: the range [0, 0) is empty");
  EXPECT_EQ(plan_error("// kopt: range(u, 0, N)\nextern \"C\" void solve(const unsigned char* u, "
                       "int N) {}",
                       {{"N", "300"}}),
            "k.cu:1: kopt annotation range(u, 0, N) for buffer u: values up to 299 do not fit in "
            "uint8 (at most 255)");
  EXPECT_EQ(plan_error("// kopt: values(u, -1, 1)\nextern \"C\" void solve(const unsigned char* "
                       "u, int N) {}",
                       {{"N", "3"}}),
            "k.cu:1: kopt annotation values(u, -1, 1) for buffer u: -1 does not fit in uint8 (0 to "
            "255)");
  EXPECT_EQ(plan_error("// kopt: normal(x, 0, 0)\nextern \"C\" void solve(const float* x, int N) {}",
                       {{"N", "3"}}),
            "k.cu:1: kopt annotation normal(x, 0, 0) for buffer x: the standard deviation 0 is not "
            "positive");
}

TEST(BufferPlan, ValuesOfAnOutBufferAreNotedAsUnused) {
  const auto p = plan("// kopt: y[N] range(y, 0, 4)\nextern \"C\" void solve(int* y, int N) {}",
                      {{"N", "3"}});
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0], "the values given for y (line 1) are not used: kopt fills an out buffer "
                        "with poison; declare inout(y) if solve() reads it");
}

TEST(BufferPlan, PartialAnnotationIsNoted) {
  const auto p = plan("// kopt: x[N]\nextern \"C\" void solve(const float* x, float* y, int N) {}",
                      {{"N", "3"}});
  EXPECT_EQ(p.buffers[1].elements, 3);
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0], "no annotated size for y: sized by the default rule");
}

TEST(BufferPlan, BackendAndItsReason) {
  EXPECT_EQ(plan(matmul, {{"M", "1"}, {"N", "1"}, {"K", "1"}}).backend_reason,
            "file extension .cu");
  const std::string cutlass = "#include <cutlass/gemm/device/gemm.h>\n" + std::string(matmul);
  const auto p = plan(cutlass, {{"M", "1"}, {"N", "1"}, {"K", "1"}});
  EXPECT_EQ(p.backend, backend::cutlass);
  EXPECT_EQ(p.backend_reason, "includes CUTLASS/CuTe headers");
  const auto forced = plan_kernel("k.cu", matmul, backend::cutlass, {{"M", "1"}, {"N", "1"}, {"K", "1"}},
                                  std::nullopt, own_flags);
  EXPECT_EQ(forced.backend, backend::cutlass);
  EXPECT_EQ(forced.backend_reason, "--backend=cutlass");
}

TEST(BufferPlan, CutlassIncludesAreFoundLineByLineWhateverTheLinesLength) {
  EXPECT_TRUE(includes_cutlass_headers("int x;\r\n  #  include \"cute/tensor.hpp\"\n"));
  EXPECT_TRUE(includes_cutlass_headers("\t#include<cutlass/cutlass.h>"));
  EXPECT_FALSE(includes_cutlass_headers("// #include <cutlass/cutlass.h>\n#include <cuda.h>\n"));
  EXPECT_FALSE(includes_cutlass_headers("#include <mycutlass/x.h>\n#define include <cutlass/x.h>\n"));
  // std::regex recursed once per character here: 300,000 blanks before a directive.
  EXPECT_TRUE(includes_cutlass_headers(std::string(300000, ' ') + "#" + std::string(300000, '\t') +
                                       "include <cutlass/x.h>"));
}

TEST(BufferPlan, TritonModulesAreNotParsed) {
  const auto p = plan("def setup(N, seed=0): ...\n", {{"N", "4096"}}, 10, "k.py");
  EXPECT_EQ(p.backend, backend::triton);
  EXPECT_FALSE(p.solve.has_value());
  ASSERT_EQ(p.passed_through.size(), 1u);
  EXPECT_EQ(p.passed_through[0].name, "N");
  EXPECT_EQ(p.notes.size(), 2u);
  const json j = to_json(p);
  EXPECT_TRUE(j["solve"].is_null());
  EXPECT_EQ(j["dimensions"]["N"], "4096");
}

TEST(BufferPlan, NonPositivePtrSizeIsAnError) {
  EXPECT_EQ(plan_error(unannotated, {{"M", "1"}, {"N", "1"}, {"K", "1"}}, 0),
            "--ptr-size=0 is not a positive element count: pass e.g. --ptr-size=1048576");
}

TEST(BufferPlan, SignatureAndAnnotationErrorsComeBeforeDimensionErrors) {
  EXPECT_EQ(plan_error("// kopt: Z[N]\nextern \"C\" void solve(float* y, int N) {}", {}),
            "k.cu:1: kopt annotation names 'Z', which is not a parameter of solve(): its buffers "
            "are y");
}

TEST(PlanJson, ParametersInSolveOrderWithEverythingInspectShows) {
  const auto p = plan(
      "// kopt: x[N] y[N] inout(y) range(x, 0, 4)\n"
      "extern \"C\" void solve(const int* x, float alpha, float* y, int N, float* z) {}",
      {{"N", "8"}, {"alpha", "0.5"}}, 16);
  const json j = to_json(p);
  EXPECT_EQ(j["backend"], "cuda");
  EXPECT_EQ(j["solve"]["line"], 2);
  const auto& params = j["solve"]["parameters"];
  ASSERT_EQ(params.size(), 5u);
  EXPECT_EQ(params[0]["name"], "x");
  EXPECT_EQ(params[0]["kind"], "buffer");
  EXPECT_EQ(params[0]["element_type"]["name"], "int32");
  EXPECT_EQ(params[0]["element_type"]["torch_dtype"], "torch.int32");
  EXPECT_EQ(params[0]["role"], "in");
  EXPECT_EQ(params[0]["elements"], 8);
  EXPECT_EQ(params[0]["bytes"], 32);
  EXPECT_EQ(params[0]["size_rule"]["kind"], "annotation");
  EXPECT_EQ(params[0]["size_rule"]["expression"], "N");
  EXPECT_EQ(params[0]["values"]["kind"], "uniform");
  EXPECT_EQ(params[0]["values"]["low"], 0);
  EXPECT_EQ(params[0]["values"]["high"], 4);
  EXPECT_EQ(params[0]["values"]["source"], "annotation");
  EXPECT_EQ(params[1]["kind"], "scalar");
  EXPECT_EQ(params[1]["value"], 0.5);
  EXPECT_EQ(params[1]["given_as"], "--alpha=0.5");
  EXPECT_EQ(params[2]["role"], "inout");
  EXPECT_EQ(params[2]["values"]["low"], -1.0);
  EXPECT_EQ(params[2]["values"]["source"], "default");
  EXPECT_EQ(params[3]["value"], 8);
  EXPECT_EQ(params[4]["values"], "poison");
  EXPECT_EQ(params[4]["elements"], 16);
  EXPECT_EQ(params[4]["size_rule"]["kind"], "ptr_size");
  EXPECT_EQ(j["dimensions"]["N"], 8);
  EXPECT_EQ(j["total_bytes"], 32 + 32 + 64);
  EXPECT_EQ(j["has_annotation"], true);
  EXPECT_EQ(j["notes"].size(), 1u);
}

}  // namespace
}  // namespace kopt::kernel
