#include "harness/poison.h"

#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "validate/element_codec.h"

namespace kopt::harness {
namespace {

constexpr const char* all_types[] = {"float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16",
                                     "uint16", "int32", "uint32", "int64", "uint64", "bool"};

TEST(Poison, FloatingPoisonIsNanAndIntegerPoisonIsNotZeroOrOne) {
  for (const char* name : all_types) {
    const auto type = *kernel::element_type_by_name(name);
    const poison_pattern poison = poison_for(type);
    // Lay the pattern down the way the device does (repeated fill words) and read it back.
    std::vector<std::byte> element(static_cast<std::size_t>(type.size_bytes));
    for (std::size_t offset = 0; offset < element.size(); offset += static_cast<std::size_t>(poison.fill_word_bytes)) {
      std::memcpy(element.data() + offset, &poison.fill_word, static_cast<std::size_t>(poison.fill_word_bytes));
    }
    EXPECT_EQ(validate::element_bits(element, type, 0), poison.element_bits) << name;
    const double value = validate::read_element(element, type, 0);
    if (type.is_floating()) {
      EXPECT_TRUE(std::isnan(value)) << name;
    } else {
      EXPECT_NE(value, 0.0) << name;
      EXPECT_NE(value, 1.0) << name;
    }
  }
}

}  // namespace
}  // namespace kopt::harness
