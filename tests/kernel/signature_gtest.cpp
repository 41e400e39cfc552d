// The signature parser on a corpus of real-world solve() files (tests/data/signatures/).
#include "kernel/signature.h"

#include <gtest/gtest.h>

#include "kernel_test_support.h"

namespace kopt::kernel {
namespace {
using testing::error_detail;
using testing::error_headline;
using testing::read_corpus;
using strings = std::vector<std::string>;

// "name: spelled type -> [const ]element[*]" per parameter.
strings describe(const signature& s) {
  strings out;
  for (const auto& p : s.parameters) {
    out.push_back(p.name + ": " + p.spelled_type + " -> " + (p.pointee_is_const ? "const " : "") +
                  std::string(p.element.name) + (p.is_pointer ? "*" : ""));
  }
  return out;
}

signature parse_corpus(const std::string& name) { return parse_signature(read_corpus(name), name); }

std::string corpus_error(const std::string& name) {
  return error_headline([&] { parse_corpus("bad/" + name); });
}

TEST(SignatureCorpus, LeetGpuVectorAdd) {
  const auto s = parse_corpus("leetgpu_vector_add.cu");
  EXPECT_EQ(s.line, 9);
  EXPECT_EQ(describe(s), (strings{"A: const float* -> const float32*",
                                  "B: const float* -> const float32*", "C: float* -> float32*",
                                  "N: int -> int32"}));
  EXPECT_EQ(s.parameters[3].index, 3);
  EXPECT_EQ(s.parameters[0].line, 9);
}

TEST(SignatureCorpus, LeetGpuSoftmaxWithTemplatesAndLaunches) {
  EXPECT_EQ(describe(parse_corpus("softmax_leetgpu.cu")),
            (strings{"input: const float* -> const float32*", "output: float* -> float32*",
                     "N: int -> int32"}));
}

TEST(SignatureCorpus, CommentsAndLineBreaksInsideTheParameterList) {
  const auto s = parse_corpus("comments_in_parameters.cu");
  EXPECT_EQ(s.line, 6);
  EXPECT_EQ(describe(s), (strings{"input: const float* -> const float32*",
                                  "output: float* -> float32*", "rows: int -> int32",
                                  "cols: int -> int32"}));
  EXPECT_EQ(s.parameters[3].line, 10);
}

TEST(SignatureCorpus, RestrictAndConstInEveryPosition) {
  EXPECT_EQ(describe(parse_corpus("restrict_variants.cu")),
            (strings{"a: const float* __restrict__ -> const float32*",
                     "b: float* __restrict -> float32*",
                     "c: const float* const __restrict__ -> const float32*",
                     "d: float const* -> const float32*",
                     "e: const float* const -> const float32*",
                     "f: float* __restrict__ const -> float32*",
                     "g: volatile int* -> int32*", "n: const int -> int32"}));
}

TEST(SignatureCorpus, AttributesAndExecutionSpaceSpecifiers) {
  EXPECT_EQ(describe(parse_corpus("attributes.cu")),
            (strings{"x: const float* -> const float32*", "y: float* -> float32*",
                     "n: int -> int32"}));
}

TEST(SignatureCorpus, ExternCBlockAmongDecoys) {
  const auto s = parse_corpus("extern_c_block.cu");
  EXPECT_EQ(s.line, 28);
  EXPECT_EQ(describe(s), (strings{"in: const double* -> const float64*",
                                  "out: double* -> float64*", "factor: double -> float64",
                                  "n: size_t -> uint64"}));
}

TEST(SignatureCorpus, ForwardDeclarationWithoutNamesThenDefinition) {
  const auto s = parse_corpus("forward_declaration.cu");
  EXPECT_EQ(s.line, 8);  // the definition's line
  EXPECT_EQ(describe(s), (strings{"a: const __half* -> const float16*", "b: __half* -> float16*",
                                  "m: int -> int32", "n: int -> int32"}));
}

TEST(SignatureCorpus, EveryElementType) {
  const auto s = parse_corpus("all_types.cu");
  strings elements;
  for (const auto& p : s.parameters) elements.push_back(std::string(p.element.name));
  EXPECT_EQ(elements,
            (strings{"float32", "float64", "float16", "float16", "bfloat16", "bfloat16", "int8",
                     "int8", "int8", "uint8", "uint8", "int16", "int16", "uint16", "uint16",
                     "int32", "int32", "int32", "uint32", "uint32", "uint32", "int64", "int64",
                     "int64", "uint64", "uint64", "uint64", "uint64", "uint64", "bool",
                     "int32", "uint32", "int64", "uint64", "uint64", "int64", "uint64", "int64",
                     "float32", "float64", "bool"}));
  EXPECT_EQ(s.pointers().size(), 30u);
  EXPECT_EQ(s.scalars().size(), 11u);
  EXPECT_EQ(s.parameters[17].spelled_type, "const std::int32_t*");
  EXPECT_FALSE(s.parameters[29].pointee_is_const);  // bool* flags
}

TEST(SignatureCorpus, ScalarsOnlyWithUnusualSpellings) {
  EXPECT_EQ(describe(parse_corpus("scalars_only.cu")),
            (strings{"count: long unsigned int -> uint64", "offset: ::std::int64_t -> int64",
                     "N: unsigned -> uint32", "s: signed -> int32"}));
}

TEST(SignatureCorpusErrors, NoSolve) {
  EXPECT_EQ(corpus_error("no_solve.cu"),
            "no extern \"C\" void solve(...) found in bad/no_solve.cu: kopt calls that function; "
            "declare it with C linkage");
}

TEST(SignatureCorpusErrors, TwoDefinitions) {
  EXPECT_EQ(corpus_error("two_solves.cu"),
            "bad/two_solves.cu:6: solve() is defined twice (also at line 3): keep one definition "
            "per file, or put the variants under #if / #ifdef and pick one with -D NAME[=VALUE]");
}

TEST(SignatureErrors, AParameterListThatNeverClosesIsNamedAsSuch) {
  EXPECT_EQ(error_headline([] { parse_signature("extern \"C\" void solve(const float* x, float* y, int N\n", "k.cu"); }),
            "k.cu:1: the parameter list of solve( never closes: add the ')' (and the body) it is missing");
}

TEST(SignatureErrors, AMacroForTheParametersIsNamedAsOne) {
  EXPECT_EQ(error_headline([] {
              parse_signature("#define SIG const float* x, float* y, int N\nextern \"C\" void solve(SIG) {}\n", "k.cu");
            }),
            "k.cu:2: solve() parameter 1 is the single word SIG, which is no type: if SIG is a macro, write solve()'s "
            "parameters out (kopt reads solve() as written, before the preprocessor)");
}

TEST(SignatureErrors, TwoParametersWithOneName) {
  EXPECT_EQ(error_headline([] { parse_signature("extern \"C\" void solve(const float* x, float* x, int N) {}", "k.cu"); }),
            "k.cu:1: solve() has two parameters named x (parameters 1 and 2): rename one");
}

TEST(SignatureCorpusErrors, DeclarationThatDisagreesWithTheDefinition) {
  EXPECT_EQ(corpus_error("declaration_mismatch.cu"),
            "bad/declaration_mismatch.cu:3: this declaration of solve() disagrees with its "
            "definition at line 5 (parameter 2: float* vs double*): make them the same");
}

TEST(SignatureCorpusErrors, UnknownTypeListsTheSupportedOnes) {
  const auto parse = [] { parse_corpus("bad/unknown_type.cu"); };
  EXPECT_EQ(error_headline(parse),
            "bad/unknown_type.cu:3: solve() parameter 'input' has type 'const float4*', which "
            "kopt does not know: use one of the supported element types");
  EXPECT_NE(error_detail(parse).find("__nv_bfloat16"), std::string::npos);
  EXPECT_NE(error_detail(parse).find("unsigned long long"), std::string::npos);
}

TEST(SignatureCorpusErrors, UnnamedParameter) {
  EXPECT_EQ(corpus_error("unnamed_parameter.cu"),
            "bad/unnamed_parameter.cu:3: solve() parameter 2 (float*) has no name: kopt refers "
            "to buffers and dimensions by name; name it");
}

TEST(SignatureCorpusErrors, ReferenceParameter) {
  EXPECT_EQ(corpus_error("reference_parameter.cu"),
            "bad/reference_parameter.cu:3: solve() parameter 'n' is a reference (const int&): "
            "pass buffers as pointers (T*) and scalars by value");
}

TEST(SignatureCorpusErrors, CxxLinkage) {
  EXPECT_EQ(corpus_error("cxx_linkage.cu"),
            "bad/cxx_linkage.cu:4: solve() has C++ linkage, so its symbol name is mangled: "
            "declare it extern \"C\" void solve(...)");
}

TEST(SignatureCorpusErrors, ArraysPointersToPointersStructsTemplates) {
  EXPECT_EQ(corpus_error("array_parameter.cu"),
            "bad/array_parameter.cu:1: solve() parameter 'input' is an array (const float "
            "input[]): declare it as a pointer, const float* input");
  EXPECT_EQ(corpus_error("pointer_to_pointer.cu"),
            "bad/pointer_to_pointer.cu:1: solve() parameter 'rows' is a pointer to a pointer "
            "(const float**): kopt allocates flat buffers; pass one pointer per buffer");
  EXPECT_EQ(corpus_error("struct_parameter.cu"),
            "bad/struct_parameter.cu:2: solve() parameter 'p' is a struct (struct params): kopt "
            "passes device buffers of plain element types and scalars only");
  EXPECT_EQ(corpus_error("template_parameter.cu"),
            "bad/template_parameter.cu:2: solve() parameter 'shape' has a template type "
            "(std::array<int, 2>): kopt passes plain element types only; see the list below");
}

TEST(SignatureCorpusErrors, WrongKindOfFunction) {
  EXPECT_EQ(corpus_error("returns_int.cu"),
            "bad/returns_int.cu:1: solve() must return void, but is declared as 'extern \"C\" "
            "int solve(...)': write extern \"C\" void solve(...)");
  EXPECT_EQ(corpus_error("declared_only.cu"),
            "bad/declared_only.cu:1: solve() is declared but never defined in "
            "bad/declared_only.cu: kopt builds this one file, so define solve() in it");
  EXPECT_EQ(corpus_error("global_solve.cu"),
            "bad/global_solve.cu:1: solve() is a __global__ kernel: kopt calls solve() on the "
            "host; launch your kernel from a host function extern \"C\" void solve(...)");
  EXPECT_EQ(corpus_error("static_solve.cu"),
            "bad/static_solve.cu:2: solve() is static, so the built library does not export "
            "it: remove `static`");
  EXPECT_EQ(corpus_error("variadic.cu"),
            "bad/variadic.cu:1: solve() is variadic (...): kopt needs a fixed list of named "
            "parameters");
}

TEST(SignatureCorpusErrors, ParametersKoptCannotFill) {
  EXPECT_EQ(corpus_error("void_pointer.cu"),
            "bad/void_pointer.cu:1: solve() parameter 'x' is a void pointer (const void*): kopt "
            "needs the element type to allocate, fill and compare the buffer; use a typed "
            "pointer such as float*");
  EXPECT_EQ(corpus_error("half_scalar.cu"),
            "bad/half_scalar.cu:2: solve() parameter 'alpha' is a __half scalar: kopt passes "
            "scalars as integers, float or double; take a float and convert inside solve()");
}

// Small inline cases for the corners the corpus does not show.
TEST(Signature, EmptyAndVoidParameterLists) {
  EXPECT_TRUE(parse_signature("extern \"C\" void solve() {}", "k.cu").parameters.empty());
  EXPECT_TRUE(parse_signature("extern \"C\" void solve(void) {}", "k.cu").parameters.empty());
}

TEST(Signature, UnsignedNamedLikeATypeWord) {
  // `unsigned N` is N of type unsigned; `unsigned int` alone would be unnamed.
  EXPECT_EQ(describe(parse_signature("extern \"C\" void solve(unsigned N) {}", "k.cu")),
            (strings{"N: unsigned -> uint32"}));
  EXPECT_EQ(error_headline([] { parse_signature("extern \"C\" void solve(unsigned int) {}", "k.cu"); }),
            "k.cu:1: solve() parameter 1 (unsigned int) has no name: kopt refers to buffers and "
            "dimensions by name; name it");
}

TEST(Signature, DefaultArgumentsAndCppLinkageOverloadsAreIgnored) {
  const auto s = parse_signature(
      "void solve(int);\n"  // a C++ overload beside the C entry point
      "extern \"C\" void solve(float* y, int n = 4) {}\n",
      "k.cu");
  EXPECT_EQ(describe(s), (strings{"y: float* -> float32*", "n: int -> int32"}));
}

TEST(Signature, ExternCxxBlockInsideExternCIsCxx) {
  EXPECT_EQ(error_headline([] {
              parse_signature("extern \"C\" { extern \"C++\" { void solve(int n) {} } }", "k.cu");
            }),
            "k.cu:1: solve() has C++ linkage, so its symbol name is mangled: declare it "
            "extern \"C\" void solve(...)");
}

TEST(Signature, WindowsLineEndings) {
  const auto s = parse_signature(
      "#define X \\\r\n  1\r\n// kopt: y[n]\r\nextern \"C\" void solve(float* y,\r\n int n) {}\r\n",
      "k.cu");
  EXPECT_EQ(s.line, 4);
  EXPECT_EQ(describe(s), (strings{"y: float* -> float32*", "n: int -> int32"}));
  EXPECT_EQ(s.parameters[1].line, 5);
}

TEST(Signature, CallsAndMembersNamedSolveAreNotDeclarations) {
  const auto s = parse_signature(
      "struct runner { void solve(int); };\n"
      "static int dummy = (helper::solve(1), 0);\n"
      "extern \"C\" void solve(int* out) { other.solve(3); solve_impl(out); }\n",
      "k.cu");
  EXPECT_EQ(describe(s), (strings{"out: int* -> int32*"}));
}

}  // namespace
}  // namespace kopt::kernel
