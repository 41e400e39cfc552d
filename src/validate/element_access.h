#pragma once
// One element type's loads and stores, as inline functions of a type chosen once per buffer:
// loops over millions of elements (the verdict's comparison) get them inlined, where a call
// through a pointer per element would cost more than the comparison itself. element_codec.h
// wraps the same functions as pointers for code that handles a few elements at a time.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel/element_type.h"

namespace kopt::validate {

float half_to_float(std::uint16_t bits);
std::uint16_t float_to_half(float value);          // round to nearest even
float bfloat16_to_float(std::uint16_t bits);
std::uint16_t float_to_bfloat16(float value);      // round to nearest even

namespace element_detail {

// The unsigned integer as wide as an element: its bits, for the poison checks.
template <std::size_t Bytes>
using bits_type = std::conditional_t<Bytes == 1, std::uint8_t,
                                     std::conditional_t<Bytes == 2, std::uint16_t,
                                                        std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>>>;

template <typename T>
T load(const std::byte* data, std::size_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
void store(std::byte* data, std::size_t index, T value) {
  std::memcpy(data + index * sizeof(T), &value, sizeof(T));
}

}  // namespace element_detail

// An element stored as T and read as T's value. Integers convert to double on their own type
// (a ?: over int32_t and uint32_t would first convert both to uint32_t).
template <typename T>
struct plain_element {
  static double read(const std::byte* data, std::size_t index) {
    return static_cast<double>(element_detail::load<T>(data, index));
  }
  static void write(std::byte* data, std::size_t index, double value) {
    element_detail::store(data, index, static_cast<T>(value));
  }
  static std::uint64_t bits(const std::byte* data, std::size_t index) {
    return element_detail::load<element_detail::bits_type<sizeof(T)>>(data, index);
  }
};

// float16 and bfloat16, converted by bit manipulation (the host has no such types).
template <float (*ToFloat)(std::uint16_t), std::uint16_t (*FromFloat)(float)>
struct sixteen_bit_float_element {
  static double read(const std::byte* data, std::size_t index) {
    return static_cast<double>(ToFloat(element_detail::load<std::uint16_t>(data, index)));
  }
  static void write(std::byte* data, std::size_t index, double value) {
    element_detail::store(data, index, FromFloat(static_cast<float>(value)));
  }
  static std::uint64_t bits(const std::byte* data, std::size_t index) {
    return element_detail::load<std::uint16_t>(data, index);
  }
};
using half_element = sixteen_bit_float_element<half_to_float, float_to_half>;
using bfloat16_element = sixteen_bit_float_element<bfloat16_to_float, float_to_bfloat16>;

// bool: any nonzero value is stored as 1.
struct bool_element : plain_element<std::uint8_t> {
  static void write(std::byte* data, std::size_t index, double value) {
    element_detail::store(data, index, static_cast<std::uint8_t>(value != 0 ? 1 : 0));
  }
};

// Calls `visit(Access{})` with the access type of `type`, and returns what it returns.
template <typename Visit>
decltype(auto) visit_element_access(const kernel::element_type& type, Visit&& visit) {
  using kernel::element_kind;
  if (type.name == "float32") return visit(plain_element<float>{});
  if (type.name == "float64") return visit(plain_element<double>{});
  if (type.name == "float16") return visit(half_element{});
  if (type.name == "bfloat16") return visit(bfloat16_element{});
  if (type.kind == element_kind::boolean) return visit(bool_element{});
  const bool is_signed = type.kind == element_kind::signed_integer;
  switch (type.size_bytes) {
    case 1: return is_signed ? visit(plain_element<std::int8_t>{}) : visit(plain_element<std::uint8_t>{});
    case 2: return is_signed ? visit(plain_element<std::int16_t>{}) : visit(plain_element<std::uint16_t>{});
    case 4: return is_signed ? visit(plain_element<std::int32_t>{}) : visit(plain_element<std::uint32_t>{});
    default: return is_signed ? visit(plain_element<std::int64_t>{}) : visit(plain_element<std::uint64_t>{});
  }
}

}  // namespace kopt::validate
