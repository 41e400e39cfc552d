#include "validate/element_codec.h"

#include <bit>
#include <cmath>

namespace kopt::validate {

float half_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  std::uint32_t mantissa = bits & 0x3ffu;
  std::uint32_t out = 0;
  if (exponent == 0x1f) {
    out = sign | 0x7f800000u | (mantissa << 13);  // inf or NaN, payload kept
  } else if (exponent != 0) {
    out = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {
    // Subnormal half: normalise into a float.
    int shift = 0;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3ffu;
    out = sign | (static_cast<std::uint32_t>(113 - shift) << 23) | (mantissa << 13);
  } else {
    out = sign;
  }
  return std::bit_cast<float>(out);
}

std::uint16_t float_to_half(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t abs_bits = bits & 0x7fffffffu;
  if (abs_bits >= 0x7f800000u) {  // inf or NaN
    return static_cast<std::uint16_t>(sign | 0x7c00u | (abs_bits > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs_bits >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflow to inf
  if (abs_bits < 0x33000001u) return sign;                                          // underflow to zero
  const int exponent = static_cast<int>(abs_bits >> 23) - 127;
  std::uint32_t mantissa = (abs_bits & 0x7fffffu) | 0x800000u;
  int shift = exponent < -14 ? 13 + (-14 - exponent) : 13;  // subnormal results shift further
  const std::uint32_t half_mantissa = mantissa >> shift;
  const std::uint32_t remainder = mantissa & ((1u << shift) - 1);
  const std::uint32_t halfway = 1u << (shift - 1);
  std::uint32_t result = exponent < -14 ? half_mantissa
                                        : (static_cast<std::uint32_t>(exponent + 15) << 10) | (half_mantissa & 0x3ffu);
  if (remainder > halfway || (remainder == halfway && (result & 1u) != 0)) ++result;  // may carry into exponent
  return static_cast<std::uint16_t>(sign | result);
}

float bfloat16_to_float(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

std::uint16_t float_to_bfloat16(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);  // quiet NaN
  const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

namespace {

// The pointer table of one access type (element_access.h).
template <typename Access>
constexpr element_codec codec_of{
    [](std::span<const std::byte> bytes, std::size_t index) { return Access::read(bytes.data(), index); },
    [](std::span<std::byte> bytes, std::size_t index, double value) { Access::write(bytes.data(), index, value); },
    [](std::span<const std::byte> bytes, std::size_t index) { return Access::bits(bytes.data(), index); }};

}  // namespace

const element_codec& codec_for(const kernel::element_type& type) {
  return visit_element_access(type, [](auto access) -> const element_codec& { return codec_of<decltype(access)>; });
}

double read_element(std::span<const std::byte> bytes, const kernel::element_type& type, std::size_t index) {
  return codec_for(type).read(bytes, index);
}

void write_element(std::span<std::byte> bytes, const kernel::element_type& type, std::size_t index, double value) {
  codec_for(type).write(bytes, index, value);
}

std::uint64_t element_bits(std::span<const std::byte> bytes, const kernel::element_type& type, std::size_t index) {
  return codec_for(type).bits(bytes, index);
}

}  // namespace kopt::validate
