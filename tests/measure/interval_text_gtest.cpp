#include "measure/interval_text.h"

#include <gtest/gtest.h>

namespace kopt::measure {
namespace {

TEST(IntervalText, WritesBothEndsAsTheFigureBesideItIsWritten) {
  EXPECT_EQ(interval_text(interval_bounds{0.0123456, 0.0134567}), "[0.01235, 0.01346]");
  EXPECT_EQ(interval_text(interval_bounds{35.3561, 35.7482}, "{:.3f}"), "[35.356, 35.748]");
  EXPECT_EQ(interval_text(std::nullopt), "n/a");
}

TEST(IntervalText, ReadsARecordsPairAndNothingElse) {
  EXPECT_EQ(interval_of(json::array({1.5, 2})), (interval_bounds{1.5, 2.0}));
  EXPECT_EQ(interval_of(json(nullptr)), std::nullopt);
  EXPECT_EQ(interval_of(json::array({1.5})), std::nullopt);
  EXPECT_EQ(interval_of(json::array({"1.5", 2})), std::nullopt);
}

}  // namespace
}  // namespace kopt::measure
