#include "harness/buffer_layout.h"

#include <vector>

#include <gtest/gtest.h>

#include "harness/poison.h"

namespace kopt::harness {
namespace {

TEST(BufferLayout, DataIsAlignedAndGuardedOnBothSides) {
  const buffer_layout layout = layout_for(1000);
  EXPECT_EQ(layout.data_offset % buffer_alignment, 0u);
  EXPECT_EQ(layout.data_offset, guard_bytes);
  EXPECT_EQ(layout.tail_offset, guard_bytes + 1000);
  EXPECT_EQ(layout.allocation_bytes, guard_bytes + 1024 + guard_bytes);
}

std::vector<std::uint8_t> clean(const buffer_layout& layout) {
  return std::vector<std::uint8_t>(layout.allocation_bytes, canary_byte);
}

std::span<const std::uint8_t> before(const std::vector<std::uint8_t>& bytes, const buffer_layout& layout) {
  return std::span(bytes).first(layout.data_offset);
}

std::span<const std::uint8_t> after(const std::vector<std::uint8_t>& bytes, const buffer_layout& layout) {
  return std::span(bytes).subspan(layout.tail_offset);
}

TEST(BufferLayout, IntactGuardsPass) {
  const buffer_layout layout = layout_for(100);
  auto bytes = clean(layout);
  for (std::size_t i = layout.data_offset; i < layout.tail_offset; ++i) bytes[i] = 0;  // the kernel's own bytes
  EXPECT_FALSE(check_guard_before(before(bytes, layout)).has_value());
  EXPECT_FALSE(check_guard_after(after(bytes, layout)).has_value());
}

TEST(BufferLayout, WritePastTheEndIsFoundInThePadding) {
  const buffer_layout layout = layout_for(100);
  auto bytes = clean(layout);
  bytes[layout.tail_offset] = 0;       // the element right after the last one
  bytes[layout.tail_offset + 3] = 0;
  const auto violation = check_guard_after(after(bytes, layout));
  ASSERT_TRUE(violation.has_value());
  EXPECT_EQ(violation->first_offset, 0u);
  EXPECT_EQ(violation->corrupted_bytes, 2u);
  EXPECT_EQ(describe(*violation, "C"), "wrote 2 bytes past the end of C (first at +0 bytes)");
}

TEST(BufferLayout, WriteBeforeTheStartIsFound) {
  const buffer_layout layout = layout_for(64);
  auto bytes = clean(layout);
  bytes[layout.data_offset - 4] = 1;
  const auto violation = check_guard_before(before(bytes, layout));
  ASSERT_TRUE(violation.has_value());
  EXPECT_EQ(violation->first_offset, 4u);
  EXPECT_EQ(describe(*violation, "x"), "wrote 1 bytes before the start of x (closest at -4 bytes)");
}

}  // namespace
}  // namespace kopt::harness
