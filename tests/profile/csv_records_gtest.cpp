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

TEST(CsvRecords, LinesSkipBlanksAndBrokenLines) {
  const auto records = parse_csv_lines("\"a\",\"b\"\n\n   \n\"unterminated\n\"c\",\"d\"\r\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1], (csv_record{"c", "d"}));
}

}  // namespace
}  // namespace kopt::profile
