#include "harness/buffer_layout.h"

#include <fmt/format.h>

#include "harness/poison.h"

namespace kopt::harness {

namespace {
std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }
}  // namespace

buffer_layout layout_for(std::size_t data_bytes) {
  buffer_layout layout;
  layout.data_offset = guard_bytes;  // a multiple of the alignment
  layout.data_bytes = data_bytes;
  layout.tail_offset = layout.data_offset + data_bytes;
  layout.allocation_bytes = layout.data_offset + round_up(data_bytes, buffer_alignment) + guard_bytes;
  return layout;
}

std::optional<guard_violation> check_guard_before(std::span<const std::uint8_t> guard) {
  std::optional<guard_violation> found;
  // Scan from the buffer backwards so the first offset is the one closest to the data.
  for (std::size_t i = guard.size(); i-- > 0;) {
    if (guard[i] == canary_byte) continue;
    if (!found) found = guard_violation{true, guard.size() - i, 0};
    ++found->corrupted_bytes;
  }
  return found;
}

std::optional<guard_violation> check_guard_after(std::span<const std::uint8_t> tail) {
  std::optional<guard_violation> found;
  for (std::size_t i = 0; i < tail.size(); ++i) {
    if (tail[i] == canary_byte) continue;
    if (!found) found = guard_violation{false, i, 0};
    ++found->corrupted_bytes;
  }
  return found;
}

std::string describe(const guard_violation& v, const std::string& buffer_name) {
  if (v.before) {
    return fmt::format("wrote {} bytes before the start of {} (closest at -{} bytes)", v.corrupted_bytes, buffer_name,
                       v.first_offset);
  }
  return fmt::format("wrote {} bytes past the end of {} (first at +{} bytes)", v.corrupted_bytes, buffer_name,
                     v.first_offset);
}

}  // namespace kopt::harness
