#include "validate/element_codec.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace kopt::validate {
namespace {

TEST(ElementCodec, HalfKnownValues) {
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(-2.0f), 0xc000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);           // rounds to infinity
  EXPECT_EQ(float_to_half(6.103515625e-05f), 0x0400);   // smallest normal
  EXPECT_EQ(float_to_half(5.9604645e-08f), 0x0001);     // smallest subnormal
  EXPECT_EQ(float_to_half(2.9802322e-08f), 0x0000);     // half of it: ties to even
  EXPECT_EQ(float_to_half(1.0f / 3.0f), 0x3555);
  EXPECT_EQ(float_to_half(1.0009765625f), 0x3c01);
  EXPECT_TRUE(std::isnan(half_to_float(float_to_half(std::nanf("")))));
}

TEST(ElementCodec, EveryHalfRoundTrips) {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const auto half = static_cast<std::uint16_t>(bits);
    const float value = half_to_float(half);
    if (std::isnan(value)) continue;
    ASSERT_EQ(float_to_half(value), half) << "bits 0x" << std::hex << bits << " value " << value;
  }
}

TEST(ElementCodec, Bfloat16RoundsToNearestEven) {
  EXPECT_EQ(float_to_bfloat16(1.0f), 0x3f80);
  EXPECT_FLOAT_EQ(bfloat16_to_float(0x3f80), 1.0f);
  EXPECT_EQ(float_to_bfloat16(1.00390625f), 0x3f80);  // exactly halfway: stays even
  EXPECT_EQ(float_to_bfloat16(1.01171875f), 0x3f82);  // halfway above an odd: rounds up
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const float value = bfloat16_to_float(static_cast<std::uint16_t>(bits));
    if (std::isnan(value)) continue;
    ASSERT_EQ(float_to_bfloat16(value), bits);
  }
}

TEST(ElementCodec, ReadsAndWritesEveryType) {
  for (const char* name : {"float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "uint16",
                           "int32", "uint32", "int64", "uint64", "bool"}) {
    const auto type = kernel::element_type_by_name(name);
    ASSERT_TRUE(type.has_value()) << name;
    std::vector<std::byte> bytes(static_cast<std::size_t>(type->size_bytes) * 3);
    const double value = type->kind == kernel::element_kind::boolean ? 1.0 : 3.0;
    write_element(bytes, *type, 1, value);
    EXPECT_EQ(read_element(bytes, *type, 1), value) << name;
    EXPECT_EQ(read_element(bytes, *type, 0), 0.0) << name;
    if (type->kind == kernel::element_kind::signed_integer || type->is_floating()) {
      write_element(bytes, *type, 2, -2.0);
      EXPECT_EQ(read_element(bytes, *type, 2), -2.0) << name;
    }
  }
}

}  // namespace
}  // namespace kopt::validate
