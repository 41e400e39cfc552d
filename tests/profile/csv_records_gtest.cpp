// CSV records as ncu writes them: quoted fields with commas and doubled quotes, CRLF, prose.
#include <gtest/gtest.h>

#include "profile/csv_records.h"

namespace kopt::profile {
namespace {

TEST(CsvRecords, QuotedFieldsKeepCommasAndDoubledQuotes) {
  const auto r = parse_csv_line(R"csv("0","void k<float, 4>(const float *, int)","say ""hi""","134,225,152")csv");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ((*r)[1], "void k<float, 4>(const float *, int)");
  EXPECT_EQ((*r)[2], "say \"hi\"");
  EXPECT_EQ((*r)[3], "134,225,152");
}

TEST(CsvRecords, TrailingCommaAndCrlfAndUnquotedFields) {
  const auto r = parse_csv_line("\"a\",b,\r");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (csv_record{"a", "b", ""}));
}

TEST(CsvRecords, BrokenQuotingIsNotCsv) {
  EXPECT_FALSE(parse_csv_line(R"("unterminated,"x")"));
  EXPECT_FALSE(parse_csv_line(R"("a"b,"c")"));
  EXPECT_FALSE(parse_csv_line(R"(x"y,z)"));
}

TEST(CsvRecords, VerbatimQuotesAreTextUnlessTheyEndAField) {
  // A line of ncu's source page (H200, Triton): the source text is not escaped.
  const std::string line = R"csv("17","x = tl.load(in_ptr + cols, other=-float("inf"))","-","13")csv";
  EXPECT_FALSE(parse_csv_line(line));
  const auto r = parse_csv_line(line, csv_quoting::verbatim);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (csv_record{"17", "x = tl.load(in_ptr + cols, other=-float(\"inf\"))", "-", "13"}));
  EXPECT_EQ(*parse_csv_line(R"csv("1","""Docstring""","say "hi"")csv", csv_quoting::verbatim),
            (csv_record{"1", R"(""Docstring"")", R"(say "hi")"}));
  // Text holding "," splits: one field too many, which the caller's width check catches.
  EXPECT_EQ(parse_csv_line(R"csv("5","s.split(",")","7")csv", csv_quoting::verbatim)->size(), 4u);
}

TEST(CsvRecords, LinesSkipBlanksAndBrokenLines) {
  const auto records = parse_csv_lines("\"a\",\"b\"\n\n   \n\"unterminated\n\"c\",\"d\"\r\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1], (csv_record{"c", "d"}));
}

}  // namespace
}  // namespace kopt::profile
