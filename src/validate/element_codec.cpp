#include "validate/element_codec.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

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

template <typename T>
T load(std::span<const std::byte> bytes, std::size_t index) {
  T value;
  std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
void store(std::span<std::byte> bytes, std::size_t index, T value) {
  std::memcpy(bytes.data() + index * sizeof(T), &value, sizeof(T));
}

// One codec per storage type. Integers convert to double on their own type: a ?: over
// int32_t and uint32_t would first convert both to uint32_t.
template <typename T>
double read_as(std::span<const std::byte> bytes, std::size_t index) {
  return static_cast<double>(load<T>(bytes, index));
}

template <typename T>
void write_as(std::span<std::byte> bytes, std::size_t index, double value) {
  store(bytes, index, static_cast<T>(value));
}

template <typename Bits>
std::uint64_t bits_of(std::span<const std::byte> bytes, std::size_t index) {
  return load<Bits>(bytes, index);
}

// The unsigned integer as wide as an element: its bits, for the poison checks.
template <std::size_t Bytes>
using bits_type = std::conditional_t<Bytes == 1, std::uint8_t,
                                     std::conditional_t<Bytes == 2, std::uint16_t,
                                                        std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>>>;

template <typename T>
constexpr element_codec plain_codec{read_as<T>, write_as<T>, bits_of<bits_type<sizeof(T)>>};

constexpr element_codec half_codec{
    [](std::span<const std::byte> bytes, std::size_t index) {
      return static_cast<double>(half_to_float(load<std::uint16_t>(bytes, index)));
    },
    [](std::span<std::byte> bytes, std::size_t index, double value) {
      store(bytes, index, float_to_half(static_cast<float>(value)));
    },
    bits_of<std::uint16_t>};

constexpr element_codec bfloat16_codec{
    [](std::span<const std::byte> bytes, std::size_t index) {
      return static_cast<double>(bfloat16_to_float(load<std::uint16_t>(bytes, index)));
    },
    [](std::span<std::byte> bytes, std::size_t index, double value) {
      store(bytes, index, float_to_bfloat16(static_cast<float>(value)));
    },
    bits_of<std::uint16_t>};

// bool: any nonzero value is stored as 1.
constexpr element_codec bool_codec{
    read_as<std::uint8_t>,
    [](std::span<std::byte> bytes, std::size_t index, double value) {
      store(bytes, index, static_cast<std::uint8_t>(value != 0 ? 1 : 0));
    },
    bits_of<std::uint8_t>};

}  // namespace

const element_codec& codec_for(const kernel::element_type& type) {
  using kernel::element_kind;
  const auto name = type.name;
  if (name == "float32") return plain_codec<float>;
  if (name == "float64") return plain_codec<double>;
  if (name == "float16") return half_codec;
  if (name == "bfloat16") return bfloat16_codec;
  if (type.kind == element_kind::boolean) return bool_codec;
  const bool is_signed = type.kind == element_kind::signed_integer;
  switch (type.size_bytes) {
    case 1: return is_signed ? plain_codec<std::int8_t> : plain_codec<std::uint8_t>;
    case 2: return is_signed ? plain_codec<std::int16_t> : plain_codec<std::uint16_t>;
    case 4: return is_signed ? plain_codec<std::int32_t> : plain_codec<std::uint32_t>;
    default: return is_signed ? plain_codec<std::int64_t> : plain_codec<std::uint64_t>;
  }
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
