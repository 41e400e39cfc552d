#include "harness/input_fill.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "validate/element_codec.h"

namespace kopt::harness {
namespace {

std::vector<double> draw(const char* type_name, const kernel::value_distribution& values, std::size_t n,
                         std::uint64_t seed = 42) {
  const auto type = *kernel::element_type_by_name(type_name);
  std::vector<std::byte> bytes(n * static_cast<std::size_t>(type.size_bytes));
  fill_input(bytes, type, values, seed);
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(validate::read_element(bytes, type, i));
  return out;
}

TEST(InputFill, IntegerRangeIsHalfOpenAndCovered) {
  kernel::value_distribution range;
  range.kind = kernel::distribution_kind::uniform;
  range.low = std::int64_t{0};
  range.high = std::int64_t{7};
  const auto values = draw("int32", range, 10000);
  std::vector<int> seen(7, 0);
  for (const double v : values) {
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 7);
    ++seen[static_cast<std::size_t>(v)];
  }
  for (const int count : seen) EXPECT_GT(count, 1000);
}

TEST(InputFill, FloatsStayInTheirRange) {
  const auto values = draw("float32", kernel::default_distribution(*kernel::element_type_by_name("float32")), 10000);
  double sum = 0;
  for (const double v : values) {
    ASSERT_GE(v, -1.0);
    ASSERT_LT(v, 1.0);
    sum += v;
  }
  EXPECT_NEAR(sum / 10000.0, 0.0, 0.05);
}

TEST(InputFill, ChoiceDrawsOnlyTheListedValues) {
  kernel::value_distribution mask;
  mask.kind = kernel::distribution_kind::choice;
  mask.choices = {std::int64_t{0}, std::int64_t{1}};
  for (const double v : draw("uint8", mask, 1000)) EXPECT_TRUE(v == 0 || v == 1);
}

TEST(InputFill, NormalHasItsMeanAndSpread) {
  kernel::value_distribution normal;
  normal.kind = kernel::distribution_kind::normal;
  normal.mean = 3.0;
  normal.stddev = 0.5;
  const auto values = draw("float64", normal, 20000);
  double sum = 0;
  double squares = 0;
  for (const double v : values) sum += v;
  const double mean = sum / 20000.0;
  for (const double v : values) squares += (v - mean) * (v - mean);
  EXPECT_NEAR(mean, 3.0, 0.02);
  EXPECT_NEAR(std::sqrt(squares / 19999.0), 0.5, 0.02);
}

TEST(InputFill, SameSeedSameBytesOtherSeedOtherBytes) {
  const auto dist = kernel::default_distribution(*kernel::element_type_by_name("bfloat16"));
  EXPECT_EQ(draw("bfloat16", dist, 100, 7), draw("bfloat16", dist, 100, 7));
  EXPECT_NE(draw("bfloat16", dist, 100, 7), draw("bfloat16", dist, 100, 8));
  EXPECT_NE(buffer_seed(1, "A"), buffer_seed(1, "B"));
  EXPECT_EQ(buffer_seed(1, "A"), buffer_seed(1, "A"));
}

}  // namespace
}  // namespace kopt::harness
