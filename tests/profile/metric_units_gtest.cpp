// Numbers and units of ncu's exports: thousands separators, and auto-scaled units converted to
// second, byte and hertz.
#include <gtest/gtest.h>

#include "profile/metric_units.h"

namespace kopt::profile {
namespace {

TEST(MetricNumber, ThousandsSeparatorsAndDecimals) {
  EXPECT_EQ(parse_metric_number("134,225,152"), 134225152.0);
  EXPECT_EQ(parse_metric_number("1,603,289,109.70"), 1603289109.70);
  EXPECT_EQ(parse_metric_number(" 0.97 "), 0.97);
  EXPECT_EQ(parse_metric_number("-3"), -3.0);
}

TEST(MetricNumber, TextIsNotANumber) {
  for (const char* text : {"", "(512, 1, 1)", "n/a", "PolicySpread", "nan", "inf", "12 us"}) {
    EXPECT_FALSE(parse_metric_number(text)) << text;
  }
}

TEST(MetricUnits, ScaledUnitsConvertToBaseUnits) {
  EXPECT_DOUBLE_EQ(convert_unit("us").factor, 1e-6);
  EXPECT_EQ(convert_unit("us").base_unit, "second");
  EXPECT_DOUBLE_EQ(convert_unit("ns").factor, 1e-9);
  EXPECT_DOUBLE_EQ(convert_unit("msecond").factor, 1e-3);
  EXPECT_DOUBLE_EQ(convert_unit("Mbyte").factor, 1e6);
  EXPECT_DOUBLE_EQ(convert_unit("Gbyte").factor, 1e9);
  EXPECT_DOUBLE_EQ(convert_unit("Ghz").factor, 1e9);
  EXPECT_EQ(convert_unit("Ghz").base_unit, "hz");
}

TEST(MetricUnits, CompoundUnitsConvertNumeratorAndDenominator) {
  EXPECT_DOUBLE_EQ(convert_unit("Tbyte/s").factor, 1e12);
  EXPECT_EQ(convert_unit("Tbyte/s").base_unit, "byte/second");
  EXPECT_DOUBLE_EQ(convert_unit("Kbyte/cycle").factor, 1e3);
  EXPECT_DOUBLE_EQ(convert_unit("sector/us").factor, 1e6);
  EXPECT_DOUBLE_EQ(convert_unit("%/Kbyte").factor, 1e-3);
  EXPECT_DOUBLE_EQ(convert_unit("cycle/nsecond").factor, 1e9);
}

TEST(MetricUnits, UnscaledUnitsPassUnchanged) {
  for (const char* unit : {"", "%", "cycle", "inst", "sector", "register/thread", "byte/sector", "warp"}) {
    EXPECT_EQ(convert_unit(unit).factor, 1.0) << unit;
    EXPECT_TRUE(is_ncu_base_unit(unit)) << unit;
  }
  EXPECT_DOUBLE_EQ(convert_unit("Kinst").factor, 1e3);
}

TEST(MetricUnits, BaseExportUnitsAreRecognised) {
  EXPECT_TRUE(is_ncu_base_unit("ns"));
  EXPECT_TRUE(is_ncu_base_unit("hz"));
  EXPECT_TRUE(is_ncu_base_unit("byte/s"));
  EXPECT_FALSE(is_ncu_base_unit("us"));
  EXPECT_FALSE(is_ncu_base_unit("Mbyte"));
  EXPECT_FALSE(is_ncu_base_unit("Ghz"));
}

}  // namespace
}  // namespace kopt::profile
