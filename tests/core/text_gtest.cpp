#include "core/text.h"

#include <gtest/gtest.h>

namespace kopt {
namespace {

TEST(Text, TrimsBothEnds) { EXPECT_EQ(trim(" \t a b \n"), "a b"); }

TEST(Text, SplitsLinesWithoutTrailingEmptyLine) {
  EXPECT_EQ(split_lines("a\r\nb\n\nc\n"), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_TRUE(split_lines("").empty());
}

TEST(Text, FormatsThousands) {
  EXPECT_EQ(format_thousands(0), "0");
  EXPECT_EQ(format_thousands(999), "999");
  EXPECT_EQ(format_thousands(1000), "1,000");
  EXPECT_EQ(format_thousands(12345), "12,345");
  EXPECT_EQ(format_thousands(268435456), "268,435,456");
  EXPECT_EQ(format_thousands(-1048576), "-1,048,576");
}

TEST(Text, FormatsBytesInBinaryUnits) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(4096), "4.00 KiB");
  EXPECT_EQ(format_bytes(64.0 * 1024 * 1024), "64.00 MiB");
}

TEST(Text, ShortensBetweenUtf8Characters) {
  EXPECT_EQ(shorten("for (int c = 0; c < n; ++c)", 40), "for (int c = 0; c < n; ++c)");
  EXPECT_EQ(shorten("for (int c = 0; c < n; ++c)", 10), "for (in...");
  // The two-byte micro sign at bytes 4-5 is kept whole or left out whole.
  EXPECT_EQ(shorten("x = \xc2\xb5s and more", 8), "x = ...");
  EXPECT_EQ(shorten("x = \xc2\xb5s and more", 9), "x = \xc2\xb5...");
}

TEST(Text, ShortensInTheMiddleKeepingTheEndThatSaysWhatToDo) {
  const std::string line = "k.cu:1: kopt annotation x[" + std::string(100000, '(') + "]: nested too deep; simplify it";
  const std::string cut = shorten_middle(line, 400);
  EXPECT_LE(cut.size(), 400u);
  EXPECT_EQ(cut.rfind("k.cu:1: kopt annotation x[(((", 0), 0u);
  EXPECT_NE(cut.find("bytes cut ...]"), std::string::npos);
  EXPECT_EQ(cut.substr(cut.size() - 31), "]: nested too deep; simplify it");
  EXPECT_EQ(shorten_middle("short", 400), "short");
}

}  // namespace
}  // namespace kopt
