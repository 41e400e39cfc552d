// What the compiler will see of a source under -D: the inactive #if branches blanked, line
// numbers kept, and solve()'s variants picked as nvcc would pick them.
#include "kernel/conditional_source.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/text.h"
#include "kernel/buffer_plan.h"

namespace kopt::kernel {
namespace {

constexpr const char* variants =
    "// kopt: x[N] y[N]\n"
    "#ifdef USE_HALF\n"
    "extern \"C\" void solve(const __half* x, __half* y, int N) {}\n"
    "#elif VARIANT == 2\n"
    "extern \"C\" void solve(const float* x, float* y, int N, int stride) {}\n"
    "#else\n"
    "extern \"C\" void solve(const float* x, float* y, int N) {}\n"
    "#endif\n";

std::vector<std::string> parameter_names(const std::vector<std::string>& defines,
                                         std::vector<dimension_arg> dims = {{"N", "8"}}) {
  const kernel_plan plan = plan_kernel("k.cu", variants, std::nullopt, dims, std::nullopt, {}, defines);
  std::vector<std::string> names;
  for (const auto& p : plan.solve->parameters) names.push_back(p.spelled_type + " " + p.name);
  return names;
}

TEST(ConditionalSource, DefinitionsPickWhichVariantOfSolveIsPlanned) {
  EXPECT_EQ(parameter_names({}), (std::vector<std::string>{"const float* x", "float* y", "int N"}));
  EXPECT_EQ(parameter_names({"USE_HALF"}), (std::vector<std::string>{"const __half* x", "__half* y", "int N"}));
  EXPECT_EQ(parameter_names({"VARIANT=2"}, {{"N", "8"}, {"stride", "2"}}),
            (std::vector<std::string>{"const float* x", "float* y", "int N", "int stride"}));
  EXPECT_EQ(parameter_names({"VARIANT=3"}), (std::vector<std::string>{"const float* x", "float* y", "int N"}));
}

TEST(ConditionalSource, InactiveLinesAreBlankedAndLinesKeepTheirNumbers) {
  const conditional_source out = active_source(variants, {"USE_HALF"});
  const auto lines = split_lines(out.text);
  ASSERT_GE(lines.size(), 8u);
  EXPECT_NE(lines[2].find("__half"), std::string::npos);  // line 3: the active variant
  EXPECT_EQ(lines[4], "");                                // line 5: another variant, blanked
  EXPECT_EQ(lines[6], "");
  EXPECT_EQ(lines[0], "// kopt: x[N] y[N]");
  EXPECT_TRUE(out.unresolved.empty());
}

TEST(ConditionalSource, TheFilesOwnDefinesAndTheUsualOperatorsAreRead) {
  const char* source =
      "#define TILE 64\n"
      "#if TILE * 2 >= 128 && defined(TILE) && !defined NOPE\n"
      "int kept;\n"
      "#endif\n"
      "#undef TILE\n"
      "#ifndef TILE\n"
      "int also_kept;\n"
      "#endif\n"
      "#if 0\n"
      "int dropped;\n"
      "#  if 1\n"
      "int dropped_inside;\n"
      "#  endif\n"
      "#endif\n"
      "#if (0x10 >> 2) == 4 ? 1 : 0\n"
      "int ternary;\n"
      "#endif\n";
  const std::string text = active_source(source, {}).text;
  EXPECT_NE(text.find("int kept;"), std::string::npos);
  EXPECT_NE(text.find("int also_kept;"), std::string::npos);
  EXPECT_EQ(text.find("dropped"), std::string::npos);
  EXPECT_NE(text.find("int ternary;"), std::string::npos);
}

TEST(ConditionalSource, AConditionItCannotEvaluateKeepsEveryBranchAndIsNamed) {
  // A function-like macro: the branches stay, and two definitions are the error they were.
  const char* source =
      "#define PICK(x) (x)\n"
      "#if PICK(1)\n"
      "extern \"C\" void solve(float* y, int N) {}\n"
      "#else\n"
      "extern \"C\" void solve(float* y, int N) {}\n"
      "#endif\n";
  const conditional_source out = active_source(source, {});
  EXPECT_EQ(out.unresolved, std::vector<int>{2});
  try {
    plan_kernel("k.cu", source, std::nullopt, {{"N", "4"}}, std::nullopt, {}, {});
    FAIL() << "two definitions were accepted";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("solve() is defined twice (also at line 3)"), std::string::npos) << e.headline();
    EXPECT_NE(e.headline().find("pick one with -D NAME[=VALUE]"), std::string::npos) << e.headline();
  }
}

TEST(ConditionalSource, AConditionTooDeepOrThatOverflowsIsNotReadNeverACrash) {
  // 30,000 parentheses recursed as deep as they go and overflowed the stack; an overflowing sum
  // was undefined behaviour. Neither has a value: the branches stay, the line is named.
  const std::string deep = "#if " + std::string(30000, '(') + "1" + std::string(30000, ')') + "\nint a;\n#endif\n";
  EXPECT_EQ(active_source(deep, {}).unresolved, std::vector<int>{1});
  const std::string negated = "#if " + std::string(30000, '-') + "1\nint a;\n#endif\n";
  EXPECT_EQ(active_source(negated, {}).unresolved, std::vector<int>{1});
  for (const char* overflow : {"9223372036854775807 + 1", "-9223372036854775807 - 2", "4611686018427387904 * 2",
                               "(-9223372036854775807 - 1) / -1"}) {
    EXPECT_EQ(active_source(std::string("#if ") + overflow + "\nint a;\n#endif\n", {}).unresolved, std::vector<int>{1})
        << overflow;
  }
  EXPECT_TRUE(active_source("#if " + std::string(200, '(') + "1" + std::string(200, ')') + "\nint a;\n#endif\n", {})
                  .unresolved.empty());
}

TEST(ConditionalSource, ADirectiveContinuedOnTheNextLineIsOneCondition) {
  const char* source =
      "#if defined(A) && \\\n"
      "    defined(B)\n"
      "int both;\n"
      "#endif\n";
  EXPECT_EQ(active_source(source, {"A"}).text.find("int both;"), std::string::npos);
  EXPECT_NE(active_source(source, {"A", "B"}).text.find("int both;"), std::string::npos);
}

}  // namespace
}  // namespace kopt::kernel
