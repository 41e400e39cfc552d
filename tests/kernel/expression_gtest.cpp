#include "kernel/expression.h"

#include <map>

#include <gtest/gtest.h>

namespace kopt::kernel {
namespace {

int64_t eval(std::string_view text, const std::map<std::string, int64_t>& names = {}) {
  return int_expression::parse(text).evaluate([&](std::string_view name) -> std::optional<int64_t> {
    const auto it = names.find(std::string(name));
    if (it == names.end()) return std::nullopt;
    return it->second;
  });
}

std::string error_of(std::string_view text, const std::map<std::string, int64_t>& names = {}) {
  try {
    eval(text, names);
  } catch (const expression_error& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Expression, PrecedenceAndAssociativity) {
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("10 - 4 - 3"), 3);
  EXPECT_EQ(eval("100 / 10 / 5"), 2);
  EXPECT_EQ(eval("7 % 4 * 3"), 9);
  EXPECT_EQ(eval("-2 * -3"), 6);
  EXPECT_EQ(eval("- (4 - 6)"), 2);
  EXPECT_EQ(eval("+5"), 5);
}

// Comparisons and the logical operators, as tune restrictions write them: 1 or 0, with C's
// precedence (|| below && below == != below < <= > >= below + -).
TEST(Expression, ComparisonsAndLogicalOperatorsYieldOneOrZeroWithCsPrecedence) {
  const std::map<std::string, int64_t> dims = {{"BLOCK", 128}, {"VEC", 4}, {"N", 1000}};
  EXPECT_EQ(eval("BLOCK * VEC <= 512", dims), 1);
  EXPECT_EQ(eval("BLOCK * VEC < 512", dims), 0);
  EXPECT_EQ(eval("BLOCK >= 64 && VEC != 3", dims), 1);
  EXPECT_EQ(eval("BLOCK > 256 || N % BLOCK == 0", dims), 0);
  EXPECT_EQ(eval("1 || 0 && 0"), 1) << "&& binds tighter than ||";
  EXPECT_EQ(eval("1 + 1 == 2"), 1) << "+ binds tighter than ==";
  EXPECT_EQ(eval("2 < 3 == 1"), 1) << "< binds tighter than ==";
  EXPECT_EQ(eval("!(BLOCK > 64)", dims), 0);
  EXPECT_EQ(eval("!0 + 1"), 2);
  EXPECT_EQ(eval("(VEC == 4) * 10", dims), 10);
  EXPECT_EQ(eval("min(BLOCK > 1, 5)", dims), 1);
  EXPECT_EQ(error_of("BLOCK <= ", dims), "expected a number, a name or '(' after '<='");
}

TEST(Expression, NamesFromTheCaller) {
  const std::map<std::string, int64_t> dims = {{"M", 64}, {"K", 32}, {"rows", 3}, {"cols", 5}};
  EXPECT_EQ(eval("M*K", dims), 2048);
  EXPECT_EQ(eval("(rows + 1) * cols", dims), 20);
  EXPECT_EQ(int_expression::parse("M*K + M").names(), (std::vector<std::string>{"M", "K"}));
}

TEST(Expression, Functions) {
  EXPECT_EQ(eval("cdiv(N, 4) * 4", {{"N", 10}}), 12);
  EXPECT_EQ(eval("cdiv(8, 4)"), 2);
  EXPECT_EQ(eval("cdiv(-7, 2)"), -3);  // rounded toward +infinity
  EXPECT_EQ(eval("cdiv(7, -2)"), -3);
  EXPECT_EQ(eval("min(a, b)", {{"a", 3}, {"b", -1}}), -1);
  EXPECT_EQ(eval("max(a, b) + 1", {{"a", 3}, {"b", -1}}), 4);
  EXPECT_EQ(eval("max(min(5, 9), cdiv(17, 2))"), 9);
}

TEST(Expression, TruncatingDivisionAsInC) {
  EXPECT_EQ(eval("-7 / 2"), -3);
  EXPECT_EQ(eval("-7 % 2"), -1);
}

TEST(Expression, IntegerLiterals) {
  EXPECT_EQ(eval("1'048'576"), 1048576);
  EXPECT_EQ(eval("0x400"), 1024);
  EXPECT_EQ(eval("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(error_of("9223372036854775808"), "the number 9223372036854775808 does not fit in 64 bits");
  EXPECT_EQ(error_of("2.5 * N"), "'2.5' is not an integer");
  EXPECT_EQ(error_of("4u"), "'4u' is not an integer");
}

TEST(Expression, OverflowIsAnError) {
  EXPECT_EQ(error_of("M*K", {{"M", int64_t{1} << 32}, {"K", int64_t{1} << 32}}),
            "integer overflow: 4294967296 * 4294967296 does not fit in int64");
  EXPECT_EQ(error_of("9223372036854775807 + 1"),
            "integer overflow: 9223372036854775807 + 1 does not fit in int64");
  EXPECT_EQ(error_of("-9223372036854775807 - 2"),
            "integer overflow: -9223372036854775807 - 2 does not fit in int64");
  EXPECT_EQ(error_of("-(-9223372036854775807 - 1)"),
            "integer overflow: -(-9223372036854775808) does not fit in int64");
  EXPECT_EQ(error_of("(-9223372036854775807 - 1) / -1"),
            "integer overflow: -9223372036854775808 / -1 does not fit in int64");
}

TEST(Expression, DivisionByZero) {
  EXPECT_EQ(error_of("N / D", {{"N", 8}, {"D", 0}}), "division by zero (8 / 0)");
  EXPECT_EQ(error_of("N % 0", {{"N", 8}}), "division by zero (8 % 0)");
  EXPECT_EQ(error_of("cdiv(N, 0)", {{"N", 8}}), "division by zero (8 cdiv 0)");
}

TEST(Expression, UnknownName) { EXPECT_EQ(error_of("M*Q", {{"M", 2}}), "unknown name 'Q'"); }

TEST(Expression, MalformedText) {
  EXPECT_EQ(error_of(""), "expected an integer expression, found nothing");
  EXPECT_EQ(error_of("M*"), "expected a number, a name or '(' after '*'");
  EXPECT_EQ(error_of("(M + 1"), "expected ')' to close '(', found the end");
  EXPECT_EQ(error_of("M N"), "unexpected 'N' after a complete expression");
  EXPECT_EQ(error_of("pow(2, 3)"), "unknown function 'pow': the functions are cdiv, min and max");
  EXPECT_EQ(error_of("min(1)"), "expected ',' between the two arguments of min(), found ')'");
  EXPECT_EQ(error_of("max(1, 2, 3)"),
            "expected ')' after the second argument of max() (it takes two), found ','");
  EXPECT_EQ(error_of("* 3"), "expected a number, a name or '(', found '*'");
}

TEST(Expression, KeepsItsText) { EXPECT_EQ(int_expression::parse("(rows + 1) * cols").text(), "(rows + 1) * cols"); }

TEST(Expression, HostileDepthIsAnErrorNotAStackOverflow) {
  const std::string parens = std::string(10'000, '(') + "N" + std::string(10'000, ')');
  EXPECT_EQ(error_of(parens, {{"N", 1}}), "the expression nests more than 200 levels deep");
  std::string calls;
  for (int i = 0; i < 100'000; ++i) calls += "min(";
  EXPECT_EQ(error_of(calls), "the expression nests more than 200 levels deep");
  std::string signs;
  for (int i = 0; i < 50'000; ++i) signs += "- ";
  EXPECT_EQ(error_of(signs + "1"), "the expression nests more than 200 levels deep");
}

TEST(Expression, HostileLengthIsAnError) {
  std::string sum = "1";
  for (int i = 0; i < 50'000; ++i) sum += "+1";
  EXPECT_EQ(error_of(sum), "the expression has more than 10000 terms: too long to be a buffer size");
}

TEST(Expression, LongAndDeepWithinTheLimitsEvaluate) {
  // 9,999 terms in a left-deep chain, and 150 levels of parentheses: evaluated without recursion.
  std::string sum = "1";
  for (int i = 0; i < 9'998; ++i) sum += "+1";
  EXPECT_EQ(eval(sum), 9'999);
  const std::string parens = std::string(150, '(') + "N*2" + std::string(150, ')');
  EXPECT_EQ(eval(parens, {{"N", 21}}), 42);
}

}  // namespace
}  // namespace kopt::kernel
