#pragma once
// The bit pattern every `out` element holds before a run. NaNs with a payload for floating
// types (no arithmetic produces them, so a copied or computed value is never mistaken for
// "untouched"), an unlikely value for integers. Every pattern repeats a 32-, 16- or 8-bit
// word, so the device fills it with one cuMemsetD32/D16/D8.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel/element_type.h"

namespace kopt::harness {

struct poison_pattern {
  std::uint64_t element_bits = 0;  // one element, as validate::element_bits reads it
  std::uint32_t fill_word = 0;     // the repeated word
  int fill_word_bytes = 4;         // 4, 2 or 1: which cuMemsetD* to use
};

poison_pattern poison_for(const kernel::element_type& type);

// `bytes` of host memory holding the poison of `type`, element after element (what the
// device holds after the cuMemsetD* fill).
std::vector<std::byte> poisoned_bytes(const kernel::element_type& type, std::size_t bytes);

// One element of the type's poison, as lower-case hex of its bytes in memory order: how it
// travels to the Python runner (the harness ABI's conventions, a Python reference's request).
std::string poison_hex(const kernel::element_type& type);

// Guard regions around every buffer hold this byte.
inline constexpr std::uint8_t canary_byte = 0xCB;

}  // namespace kopt::harness
