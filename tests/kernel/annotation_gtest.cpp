#include "kernel/annotation.h"

#include <gtest/gtest.h>

#include "kernel_test_support.h"

namespace kopt::kernel {
namespace {
using testing::error_headline;

annotation_set parse(std::string_view source) {
  return parse_annotations(tokenize(source).comments, "k.cu");
}

std::string parse_error(std::string_view source) {
  return error_headline([&] { parse(source); });
}

// Parses and checks `annotation` against `solve_declaration`.
std::string check_error(std::string_view source) {
  return error_headline([&] {
    const token_stream tokens = tokenize(source);
    check_annotations(parse_annotations(tokens.comments, "k.cu"), parse_signature(tokens, "k.cu"),
                      "k.cu");
  });
}

constexpr std::string_view gather_solve =
    "extern \"C\" void solve(const float* table, const int* idx, float* out, "
    "const unsigned char* mask, float alpha, int N, int E, int D) {}\n";

TEST(Annotation, SizesAndRoles) {
  const auto a = parse("// kopt: A[M*K] B[K*N] C[M*N] inout(C)\n");
  ASSERT_EQ(a.sizes.size(), 3u);
  EXPECT_EQ(a.sizes[0].buffer, "A");
  EXPECT_EQ(a.sizes[0].count.text(), "M*K");
  EXPECT_EQ(a.sizes[2].count.text(), "M*N");
  EXPECT_EQ(a.sizes[0].line, 1);
  ASSERT_EQ(a.roles.size(), 1u);
  EXPECT_EQ(a.roles[0].buffer, "C");
  EXPECT_EQ(a.roles[0].role, buffer_role::inout);
}

TEST(Annotation, EveryRoleWithSeveralBuffers) {
  const auto a = parse("// kopt: in(a, b), out(c) inout(d)\n");
  ASSERT_EQ(a.roles.size(), 4u);
  EXPECT_EQ(a.role_of("a")->role, buffer_role::in);
  EXPECT_EQ(a.role_of("b")->role, buffer_role::in);
  EXPECT_EQ(a.role_of("c")->role, buffer_role::out);
  EXPECT_EQ(a.role_of("d")->role, buffer_role::inout);
}

TEST(Annotation, ValueSpecifications) {
  const auto a = parse(
      "// kopt: idx[E] range(idx, 0, N)\n"
      "// kopt: mask[N] values(mask, 0, 1)\n"
      "// kopt: noise[N] normal(noise, 0, 0.5)\n"
      "// kopt: range(x, -0.5, 1e-1) values(y, -1, N - 1, 2*N)\n");
  ASSERT_EQ(a.values.size(), 5u);
  const auto* idx = a.values_of("idx");
  EXPECT_EQ(idx->kind, distribution_kind::uniform);
  EXPECT_EQ(idx->args[0].integer->text(), "0");
  EXPECT_EQ(idx->args[1].integer->text(), "N");
  EXPECT_EQ(idx->line, 1);
  EXPECT_EQ(idx->text, "range(idx, 0, N)");
  EXPECT_EQ(a.values_of("mask")->kind, distribution_kind::choice);
  EXPECT_EQ(a.values_of("mask")->args.size(), 2u);
  const auto* noise = a.values_of("noise");
  EXPECT_EQ(noise->kind, distribution_kind::normal);
  EXPECT_EQ(noise->args[0].integer->text(), "0");
  EXPECT_DOUBLE_EQ(*noise->args[1].floating, 0.5);
  EXPECT_EQ(noise->line, 3);
  EXPECT_DOUBLE_EQ(*a.values_of("x")->args[0].floating, -0.5);
  EXPECT_DOUBLE_EQ(*a.values_of("x")->args[1].floating, 0.1);
  EXPECT_EQ(a.values_of("y")->args[1].integer->text(), "N - 1");
}

TEST(Annotation, BlockCommentsAndDocComments) {
  const auto a = parse(
      "/* kopt: A[M*K] B[K*N] */\n"
      "/**\n"
      " * Some prose first.\n"
      " * kopt: C[M*N] inout(C)\n"
      " * kopt: D[N]\n"
      " * More prose (it is not an annotation): A[2] out(B).\n"
      " */\n"
      "/// kopt: E[1]\n");
  ASSERT_EQ(a.sizes.size(), 5u);
  EXPECT_EQ(a.size_of("B")->line, 1);
  EXPECT_EQ(a.size_of("C")->line, 4);
  EXPECT_EQ(a.role_of("C")->line, 4);
  EXPECT_EQ(a.size_of("D")->line, 5);
  EXPECT_EQ(a.size_of("E")->line, 8);
  EXPECT_EQ(a.roles.size(), 1u);
}

TEST(Annotation, OtherCommentsAndStringsAreNotAnnotations) {
  const auto a = parse(
      "// kopt then fills y with the same values\n"
      "// note: kopt: is only recognised at the start\n"
      "const char* s = \"// kopt: A[N]\";\n"
      "// KOPT: A[N]\n");
  EXPECT_TRUE(a.empty());
}

TEST(Annotation, CommasBetweenItemsAndOddSpacing) {
  const auto a = parse("//kopt:A[ M * K ],B[K*N],inout( C )");
  EXPECT_EQ(a.sizes.size(), 2u);
  EXPECT_EQ(a.size_of("A")->count.text(), "M * K");
  EXPECT_EQ(a.role_of("C")->role, buffer_role::inout);
}

TEST(AnnotationErrors, MalformedItems) {
  EXPECT_EQ(parse_error("// kopt: A[M*K] 42\n"),
            "k.cu:1: malformed kopt annotation at '42': expected NAME[COUNT], in(...), out(...), "
            "inout(...), range(...), values(...), normal(...), tune(...) or restrict(...)");
  EXPECT_EQ(parse_error("\n// kopt: A\n"),
            "k.cu:2: malformed kopt annotation at 'A': expected NAME[COUNT], in(...), out(...), "
            "inout(...), range(...), values(...), normal(...), tune(...) or restrict(...)");
  EXPECT_EQ(parse_error("// kopt: A[M*K\n"),
            "k.cu:1: malformed kopt annotation: the '[' after A is never closed");
  EXPECT_EQ(parse_error("// kopt: A[]\n"),
            "k.cu:1: kopt annotation A[] has no element count: write A[COUNT], e.g. A[N]");
  EXPECT_EQ(parse_error("// kopt: A[M*]\n"),
            "k.cu:1: kopt annotation A[M*]: expected a number, a name or '(' after '*'");
  EXPECT_EQ(parse_error("// kopt: size(A, N)\n"),
            "k.cu:1: unknown kopt annotation item 'size(...)': expected NAME[COUNT], in(...), "
            "out(...), inout(...), range(...), values(...), normal(...), tune(...) or restrict(...)");
}

TEST(AnnotationErrors, WrongArguments) {
  EXPECT_EQ(parse_error("// kopt: range(idx, 0)\n"),
            "k.cu:1: kopt annotation range(idx, 0) takes 3 arguments (NAME, LO, HI), found 2: "
            "write range(idx, 0, N)");
  EXPECT_EQ(parse_error("// kopt: normal(x, 0, 1, 2)\n"),
            "k.cu:1: kopt annotation normal(x, 0, 1, 2) takes 3 arguments (NAME, MEAN, STD), "
            "found 4: write normal(x, 0, 0.5)");
  EXPECT_EQ(parse_error("// kopt: values(mask)\n"),
            "k.cu:1: kopt annotation values(mask) takes a buffer name and at least one value: "
            "write values(mask, 0, 1)");
  EXPECT_EQ(parse_error("// kopt: out()\n"),
            "k.cu:1: kopt annotation out() names no buffer: write out(C)");
  EXPECT_EQ(parse_error("// kopt: inout(C, 1)\n"),
            "k.cu:1: kopt annotation inout(C, 1): expected a buffer name, found '1'");
  EXPECT_EQ(parse_error("// kopt: range(x, 0, , 1)\n"),
            "k.cu:1: kopt annotation range(x, 0, , 1) has an empty argument");
  EXPECT_EQ(parse_error("// kopt: range(x, 0, N*)\n"),
            "k.cu:1: kopt annotation range(x, 0, N*): expected a number, a name or '(' after '*'");
}

TEST(AnnotationErrors, ABoundBeyondADoubleIsRefusedNotMadeInfinite) {
  EXPECT_EQ(parse_error("// kopt: range(x, -1e400, 1e400)\n"),
            "k.cu:1: kopt annotation range(x, -1e400, 1e400): '1e400' is beyond the range of a double: give a finite "
            "bound");
}

TEST(AnnotationErrors, DuplicatesForOneBuffer) {
  EXPECT_EQ(parse_error("// kopt: C[N]\n// kopt: C[M]\n"),
            "k.cu:2: second size for buffer C in kopt annotations (the first is at line 1): keep one");
  EXPECT_EQ(parse_error("// kopt: out(C) inout(C)\n"),
            "k.cu:1: second role for buffer C in kopt annotations (the first is at line 1): keep one");
  EXPECT_EQ(parse_error("// kopt: range(x, 0, 1)\n\n// kopt: values(x, 1)\n"),
            "k.cu:3: second value distribution for buffer x in kopt annotations (the first is at "
            "line 1): keep one");
}

TEST(AnnotationCheck, AcceptsAWellFormedAnnotation) {
  EXPECT_EQ(check_error(std::string("// kopt: table[N*D] idx[E] out[E*D] mask[cdiv(E, 8)]\n"
                                    "// kopt: range(idx, 0, N) values(mask, 0, 1) in(out)\n"
                                    "// kopt: normal(table, 0, 0.5)\n") +
                        std::string(gather_solve)),
            "<no error>");
}

TEST(AnnotationCheck, UnknownBuffer) {
  EXPECT_EQ(check_error(std::string("// kopt: table[N] nope[N]\n") + std::string(gather_solve)),
            "k.cu:1: kopt annotation names 'nope', which is not a parameter of solve(): its "
            "buffers are table, idx, out, mask");
  EXPECT_EQ(check_error(std::string("// kopt: inout(N)\n") + std::string(gather_solve)),
            "k.cu:1: kopt annotation names 'N', a scalar parameter of solve(): sizes, roles and "
            "values apply to its buffers (table, idx, out, mask)");
}

TEST(AnnotationCheck, UnknownDimension) {
  EXPECT_EQ(check_error(std::string("// kopt: table[N*Q]\n") + std::string(gather_solve)),
            "k.cu:1: unknown dimension 'Q' in kopt annotation table[N*Q]: solve() has no integer "
            "parameter Q (its integer parameters: N, E, D)");
  EXPECT_EQ(check_error(std::string("// kopt: table[alpha]\n") + std::string(gather_solve)),
            "k.cu:1: unknown dimension 'alpha' in kopt annotation table[alpha]: alpha is a float "
            "parameter; expressions use integer parameters (its integer parameters: N, E, D)");
  EXPECT_EQ(check_error(std::string("// kopt: range(idx, 0, idx)\n") + std::string(gather_solve)),
            "k.cu:1: unknown dimension 'idx' in kopt annotation range(idx, 0, idx): idx is a "
            "buffer, not a dimension (its integer parameters: N, E, D)");
}

TEST(AnnotationCheck, ConstBufferDeclaredOutOrInout) {
  EXPECT_EQ(check_error(std::string("// kopt: out(table)\n") + std::string(gather_solve)),
            "k.cu:1: kopt annotation declares table out, but solve() takes it as 'const float*', "
            "so the kernel cannot write it: drop the const or the annotation");
  EXPECT_EQ(check_error(std::string("// kopt: inout(idx)\n") + std::string(gather_solve)),
            "k.cu:1: kopt annotation declares idx inout, but solve() takes it as 'const int*', so "
            "the kernel cannot write it: drop the const or the annotation");
}

TEST(AnnotationCheck, ValuesMustSuitTheElementType) {
  EXPECT_EQ(check_error(std::string("// kopt: normal(idx, 0, 1)\n") + std::string(gather_solve)),
            "k.cu:1: kopt annotation normal(idx, 0, 1): normal() needs a floating-point buffer, "
            "but idx holds int32: use range(...) or values(...)");
  EXPECT_EQ(check_error(std::string("// kopt: range(idx, 0.5, N)\n") + std::string(gather_solve)),
            "k.cu:1: kopt annotation range(idx, 0.5, N): '0.5' is not an integer, but idx holds "
            "int32 values: use integers");
}

}  // namespace
}  // namespace kopt::kernel
