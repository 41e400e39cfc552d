#include "harness/poison.h"

#include <cstring>

#include <fmt/format.h>

namespace kopt::harness {

poison_pattern poison_for(const kernel::element_type& type) {
  const auto name = type.name;
  if (name == "float32") return {0x7fc0ffeeULL, 0x7fc0ffeeU, 4};              // quiet NaN, payload
  if (name == "float64") return {0x7ff8ffee7ff8ffeeULL, 0x7ff8ffeeU, 4};      // quiet NaN, payload
  if (name == "float16" || name == "bfloat16") return {0x7feeULL, 0x7feeU, 2};  // quiet NaN in both
  if (type.kind == kernel::element_kind::boolean) return {0x7fULL, 0x7fU, 1};   // neither 0 nor 1
  switch (type.size_bytes) {
    case 1: return {0xa5ULL, 0xa5U, 1};
    case 2: return {0x7f7fULL, 0x7f7fU, 2};
    case 4: return {0x7f7f7f7fULL, 0x7f7f7f7fU, 4};
    default: return {0x7f7f7f7f7f7f7f7fULL, 0x7f7f7f7fU, 4};
  }
}

std::vector<std::byte> poisoned_bytes(const kernel::element_type& type, std::size_t bytes) {
  const poison_pattern poison = poison_for(type);
  const auto word_bytes = static_cast<std::size_t>(poison.fill_word_bytes);
  std::vector<std::byte> out(bytes);
  // Little-endian: the word's low bytes come first, as the device's fill leaves them.
  for (std::size_t at = 0; at + word_bytes <= bytes; at += word_bytes) std::memcpy(&out[at], &poison.fill_word, word_bytes);
  return out;
}

std::string poison_hex(const kernel::element_type& type) {
  std::string hex;
  for (const std::byte b : poisoned_bytes(type, static_cast<std::size_t>(type.size_bytes))) {
    hex += fmt::format("{:02x}", static_cast<unsigned>(b));
  }
  return hex;
}

}  // namespace kopt::harness
