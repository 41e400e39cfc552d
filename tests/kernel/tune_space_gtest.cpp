// tune(MACRO, V...) and restrict(CONDITION) in a kernel's annotations (kernel/tune_space.h):
// what they declare, the mistakes named with their line, and the configurations the
// restrictions leave at given dimensions, in order.
#include "kernel/tune_space.h"

#include <map>

#include <gtest/gtest.h>

#include "kernel/python_comments.h"
#include "kernel/signature.h"
#include "kernel/tokenizer.h"
#include "kernel_test_support.h"

namespace kopt::kernel {
namespace {
using testing::error_headline;

constexpr std::string_view tiled_solve = "extern \"C\" void solve(const float* x, float* y, int N) {}\n";

// The annotations of `source` checked against its solve(), as planning does.
annotation_set checked(std::string_view source) {
  const token_stream tokens = tokenize(source);
  annotation_set annotations = parse_annotations(tokens.comments, "k.cu");
  check_annotations(annotations, parse_signature(tokens, "k.cu"), "k.cu");
  return annotations;
}

std::string check_error(std::string_view source) {
  return error_headline([&] { checked(source); });
}

std::vector<std::string> allowed_at(std::string_view source, int64_t n) {
  const tune_space space(checked(source));
  std::vector<std::string> texts;
  const auto dims = [n](std::string_view name) -> std::optional<int64_t> {
    return name == "N" ? std::optional<int64_t>(n) : std::nullopt;
  };
  for (const tune_configuration& c : space.allowed(dims, "k.cu")) texts.push_back(c.text());
  return texts;
}

TEST(TuneSpace, ParametersInTheOrderDeclaredAndEveryCombinationWithoutRestrictions) {
  const std::string source =
      "// kopt: x[N] y[N] tune(BLOCK, 64, 128) tune(VEC, 1, 2, 4)\n" + std::string(tiled_solve);
  const tune_space space(checked(source));
  ASSERT_EQ(space.parameters().size(), 2U);
  EXPECT_EQ(space.parameters()[0].name, "BLOCK");
  EXPECT_EQ(space.parameters()[1].values, (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(space.size(), 6U);
  EXPECT_EQ(allowed_at(source, 1024),
            (std::vector<std::string>{"BLOCK=64 VEC=1", "BLOCK=64 VEC=2", "BLOCK=64 VEC=4", "BLOCK=128 VEC=1",
                                      "BLOCK=128 VEC=2", "BLOCK=128 VEC=4"}));
}

TEST(TuneSpace, RestrictionsOverParametersAndDimensionsLeaveOnlyWhatPasses) {
  const std::string source =
      "// kopt: x[N] y[N]\n"
      "// kopt: tune(BLOCK, 64, 128, 256) tune(VEC, 1, 2, 4)\n"
      "// kopt: restrict(BLOCK * VEC <= 512) restrict(N % (BLOCK * VEC) == 0 || VEC == 1)\n" +
      std::string(tiled_solve);
  EXPECT_EQ(
      allowed_at(source, 1024),
      (std::vector<std::string>{"BLOCK=64 VEC=1", "BLOCK=64 VEC=2", "BLOCK=64 VEC=4", "BLOCK=128 VEC=1",
                                "BLOCK=128 VEC=2", "BLOCK=128 VEC=4", "BLOCK=256 VEC=1", "BLOCK=256 VEC=2"}));
  // At N = 1000 only VEC = 1 and the products that divide 1000 are left.
  EXPECT_EQ(allowed_at(source, 1000),
            (std::vector<std::string>{"BLOCK=64 VEC=1", "BLOCK=128 VEC=1", "BLOCK=256 VEC=1"}));
  const tune_configuration first =
      tune_space(checked(source)).allowed([](std::string_view) { return 1024; }, "k.cu")[0];
  EXPECT_EQ(first.defines(), (std::vector<std::string>{"BLOCK=64", "VEC=1"}));
}

TEST(TuneSpace, AKernelWithoutTuneHasAnEmptySpace) {
  const tune_space space(checked("// kopt: x[N] y[N]\n" + std::string(tiled_solve)));
  EXPECT_TRUE(space.empty());
  EXPECT_EQ(space.size(), 0U);
  EXPECT_TRUE(space.allowed([](std::string_view) { return 1; }, "k.cu").empty());
}

TEST(TuneSpaceErrors, MistakesAreNamedWithTheirLine) {
  const std::string solve(tiled_solve);
  EXPECT_EQ(
      check_error("// kopt: tune(BLOCK)\n" + solve),
      "k.cu:1: kopt annotation tune(BLOCK) takes a macro name and at least one value: write tune(BLOCK, 64, "
      "128, 256)");
  EXPECT_EQ(check_error("// kopt: tune(BLOCK, 64, 64)\n" + solve),
            "k.cu:1: kopt annotation tune(BLOCK, 64, 64): the value 64 is listed twice");
  EXPECT_EQ(check_error("// kopt: tune(BLOCK, 64, N)\n" + solve),
            "k.cu:1: kopt annotation tune(BLOCK, 64, N): the value N is not an integer constant (unknown "
            "name 'N')");
  EXPECT_EQ(check_error("// kopt: tune(BLOCK, 64)\n// kopt: tune(BLOCK, 128)\n" + solve),
            "k.cu:2: second tune() of BLOCK in kopt annotations (the first is at line 1): keep one");
  EXPECT_EQ(
      check_error("// kopt: tune(N, 64, 128)\n" + solve),
      "k.cu:1: kopt annotation tune(N, 64, 128) names N, a parameter of solve(): tune() sets a -D macro of "
      "the build; pass dimensions as --N=VALUE");
  EXPECT_EQ(
      check_error("// kopt: tune(BLOCK, 64) restrict(BLOCK < WARP)\n" + solve),
      "k.cu:1: kopt annotation restrict(BLOCK < WARP) names 'WARP', which is neither a tune() parameter nor "
      "an integer parameter of solve() (known: BLOCK, N)");
  EXPECT_EQ(
      check_error("// kopt: restrict(N > 4)\n" + solve),
      "k.cu:1: kopt annotation restrict(...) without any tune(...): declare the parameters it restricts");
  EXPECT_EQ(check_error("// kopt: tune(BLOCK, 64) restrict()\n" + solve),
            "k.cu:1: kopt annotation restrict() has no condition: write restrict(BLOCK * VEC <= 1024)");
}

TEST(TuneSpaceErrors, ARestrictionThatCannotBeEvaluatedNamesTheConfiguration) {
  const std::string source =
      "// kopt: x[N] y[N] tune(VEC, 0, 2) restrict(N % VEC == 0)\n" + std::string(tiled_solve);
  EXPECT_EQ(error_headline([&] { allowed_at(source, 1024); }),
            "k.cu:1: restrict(N % VEC == 0) at VEC=0: division by zero (1024 % 0)");
}

TEST(TuneSpaceErrors, ASpaceLargerThanKoptTakesIsRefusedBeforeAnyIsListed) {
  std::string values;
  for (int v = 1; v <= 101; ++v) values += ", " + std::to_string(v);
  const std::string source = "// kopt: x[N] y[N] tune(A" + values + ") tune(B" + values + ") tune(C" +
                             values + ")\n" + std::string(tiled_solve);
  EXPECT_EQ(
      error_headline([&] { allowed_at(source, 1); }),
      "k.cu: the tune() parameters make 1030301 configurations, more than kopt tune takes (1000000): declare "
      "fewer values");
}

}  // namespace
}  // namespace kopt::kernel

namespace kopt::kernel {
namespace {

TEST(PythonComments, HashesInStringsAreNotComments) {
  const std::vector<comment> found = python_comments(
      "x = '# not'  # first\n"
      "y = \"a \\\" # still a string\"\n"
      "doc = \"\"\"\n# inside a docstring\n\"\"\"  # second\n"
      "# third");
  ASSERT_EQ(found.size(), 3U);
  EXPECT_EQ(found[0].text, " first");
  EXPECT_EQ(found[0].line, 1);
  EXPECT_EQ(found[1].text, " second");
  EXPECT_EQ(found[1].line, 5);
  EXPECT_EQ(found[2].text, " third");
  EXPECT_EQ(found[2].line, 6);
}

constexpr std::string_view autotuned_module =
    "\"\"\"A Triton module; '# kopt: tune(NOT, 1)' in a docstring is no annotation.\"\"\"\n"
    "# kopt: flops=2*n\n"
    "# kopt: tune(BLOCK, 64, 128, 256) tune(num_warps, 2, 4)\n"
    "# kopt: restrict(BLOCK <= n && BLOCK / (32 * num_warps) >= 1)\n"
    "import triton\n";

TEST(TritonTuneSpace, AModuleDeclaresItsSpaceInHashCommentsAndItsDimensionsRestrictIt) {
  const kernel_plan plan =
      plan_kernel("scale.py", autotuned_module, std::nullopt, {{"n", "128", false}}, std::nullopt, {});
  const planned_tune_space tune = plan_tune_space(plan, autotuned_module);
  ASSERT_EQ(tune.space.parameters().size(), 2U) << "the docstring's text and the flops line are not parameters";
  EXPECT_EQ(tune.space.parameters()[0].name, "BLOCK");
  EXPECT_EQ(tune.space.size(), 6U);
  std::vector<std::string> texts;
  for (const tune_configuration& c : tune.allowed) texts.push_back(c.text());
  EXPECT_EQ(texts, (std::vector<std::string>{"BLOCK=64 num_warps=2", "BLOCK=128 num_warps=2",
                                             "BLOCK=128 num_warps=4"}));
}

TEST(TritonTuneSpace, ARestrictionOnADimensionNotGivenNamesIt) {
  const kernel_plan plan = plan_kernel("scale.py", autotuned_module, std::nullopt, {}, std::nullopt, {});
  const std::string headline = error_headline([&] { plan_tune_space(plan, autotuned_module); });
  EXPECT_NE(headline.find("scale.py:4: restrict("), std::string::npos) << headline;
  EXPECT_NE(headline.find("n"), std::string::npos) << headline;
}

}  // namespace
}  // namespace kopt::kernel
