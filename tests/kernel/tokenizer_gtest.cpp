#include "kernel/tokenizer.h"

#include <gtest/gtest.h>

namespace kopt::kernel {
namespace {

std::vector<std::string> texts(const token_stream& stream) {
  std::vector<std::string> out;
  for (const auto& t : stream.tokens) out.push_back(t.text);
  return out;
}

using strings = std::vector<std::string>;

TEST(Tokenizer, IdentifiersNumbersAndPunctuation) {
  const auto s = tokenize("const float* __restrict__ a, std::size_t n = 0x1F;");
  EXPECT_EQ(texts(s), (strings{"const", "float", "*", "__restrict__", "a", ",", "std", "::",
                               "size_t", "n", "=", "0x1F", ";"}));
  EXPECT_EQ(s.tokens[0].kind, token_kind::identifier);
  EXPECT_EQ(s.tokens[2].kind, token_kind::punctuation);
  EXPECT_EQ(s.tokens[11].kind, token_kind::number);
}

TEST(Tokenizer, NumbersWithSeparatorsExponentsAndSuffixes) {
  EXPECT_EQ(texts(tokenize("1'048'576 1e-3 .5f 0x1p+4 2.5")),
            (strings{"1'048'576", "1e-3", ".5f", "0x1p+4", "2.5"}));
  EXPECT_EQ(texts(tokenize("a-1")), (strings{"a", "-", "1"}));
}

TEST(Tokenizer, AngleBracketsStaySingleSoTemplatesClose) {
  EXPECT_EQ(texts(tokenize("a<b<c>>d")), (strings{"a", "<", "b", "<", "c", ">", ">", "d"}));
  EXPECT_EQ(texts(tokenize("k<<<g, b>>>(x)")).size(), 13u);
}

TEST(Tokenizer, StringAndCharLiteralsAreOneToken) {
  const auto s = tokenize(R"(extern "C" 'x' "a \" // not a comment" '\'')");
  ASSERT_EQ(s.tokens.size(), 5u);
  EXPECT_EQ(s.tokens[1].text, "\"C\"");
  EXPECT_EQ(s.tokens[1].kind, token_kind::string_literal);
  EXPECT_EQ(s.tokens[2].kind, token_kind::char_literal);
  EXPECT_EQ(s.tokens[3].text, R"("a \" // not a comment")");
  EXPECT_TRUE(s.comments.empty());
}

TEST(Tokenizer, RawStringsAreOneToken) {
  const auto s = tokenize("x = R\"py(a \"quoted\" ) // )py\"; y");
  EXPECT_EQ(texts(s), (strings{"x", "=", "\"py(a \"quoted\" ) // )py\"", ";", "y"}));
}

TEST(Tokenizer, CommentsAreSetAsideWithTheirLines) {
  const auto s = tokenize("a // one\n/* two\n three */ b\n// kopt: A[N]\n");
  EXPECT_EQ(texts(s), (strings{"a", "b"}));
  ASSERT_EQ(s.comments.size(), 3u);
  EXPECT_EQ(s.comments[0].text, " one");
  EXPECT_EQ(s.comments[0].line, 1);
  EXPECT_FALSE(s.comments[0].is_block);
  EXPECT_EQ(s.comments[1].text, " two\n three ");
  EXPECT_EQ(s.comments[1].line, 2);
  EXPECT_TRUE(s.comments[1].is_block);
  EXPECT_EQ(s.comments[2].line, 4);
  EXPECT_EQ(s.tokens[1].line, 3);
}

TEST(Tokenizer, PreprocessorLinesAndContinuationsAreDropped) {
  const auto s = tokenize(
      "#include \"a//b.h\"\n"
      "  #  define SOLVE extern \"C\" \\\n"
      "     void solve(int x)\n"
      "int y; # not a directive\n"
      "#if 0 // kopt: A[N]\n");
  EXPECT_EQ(texts(s), (strings{"int", "y", ";", "#", "not", "a", "directive"}));
  EXPECT_EQ(s.tokens[0].line, 4);
  ASSERT_EQ(s.comments.size(), 1u);  // comments in directives still count
  EXPECT_EQ(s.comments[0].text, " kopt: A[N]");
  EXPECT_EQ(s.comments[0].line, 5);
}

TEST(Tokenizer, LineNumbersCountEveryNewline) {
  const auto s = tokenize("a\n\"s\"\n/*\n\n*/ b\nc", 10);
  ASSERT_EQ(s.tokens.size(), 4u);
  EXPECT_EQ(s.tokens[0].line, 10);
  EXPECT_EQ(s.tokens[1].line, 11);
  EXPECT_EQ(s.tokens[2].line, 14);
  EXPECT_EQ(s.tokens[3].line, 15);
}

TEST(Tokenizer, OffsetsPointIntoTheText) {
  const std::string text = "ab + (cd)";
  const auto s = tokenize(text);
  for (const auto& t : s.tokens) EXPECT_EQ(text.substr(t.offset, t.text.size()), t.text);
}

TEST(Tokenizer, UnterminatedThingsDoNotThrow) {
  EXPECT_EQ(texts(tokenize("\"open\nx")), (strings{"\"open", "x"}));
  const auto s = tokenize("a /* never closed");
  EXPECT_EQ(texts(s), (strings{"a"}));
  EXPECT_EQ(s.comments.size(), 1u);
}

}  // namespace
}  // namespace kopt::kernel
