#pragma once
// Reading and writing one element of a device buffer's host copy as a number, for every
// element type kopt supports (float16 and bfloat16 converted by bit manipulation, since
// the host has no such types).

#include <cstddef>
#include <cstdint>
#include <span>

#include "kernel/element_type.h"
#include "validate/element_access.h"

namespace kopt::validate {

// How one element type is read, written and compared bit for bit, chosen once per buffer so
// that loops over millions of elements do not dispatch on the type name per element.
struct element_codec {
  double (*read)(std::span<const std::byte> bytes, std::size_t index);
  void (*write)(std::span<std::byte> bytes, std::size_t index, double value);
  std::uint64_t (*bits)(std::span<const std::byte> bytes, std::size_t index);
};

const element_codec& codec_for(const kernel::element_type& type);

// Element `index` of `bytes` (laid out as `type`) as a double; integers convert exactly
// up to 2^53, which is all a comparison needs.
double read_element(std::span<const std::byte> bytes, const kernel::element_type& type, std::size_t index);

// Stores `value` (converted, rounded or truncated toward zero for integers) into element `index`.
void write_element(std::span<std::byte> bytes, const kernel::element_type& type, std::size_t index, double value);

// Raw bits of element `index` as an unsigned integer (for bit-exact poison checks).
std::uint64_t element_bits(std::span<const std::byte> bytes, const kernel::element_type& type, std::size_t index);

}  // namespace kopt::validate
