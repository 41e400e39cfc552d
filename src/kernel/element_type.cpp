#include "kernel/element_type.h"

#include <array>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kopt::kernel {
namespace {

constexpr std::array<element_type, 12> canonical_types = {{
    {"float32", element_kind::floating, 4, "torch.float32"},
    {"float64", element_kind::floating, 8, "torch.float64"},
    {"float16", element_kind::floating, 2, "torch.float16"},
    {"bfloat16", element_kind::floating, 2, "torch.bfloat16"},
    {"int8", element_kind::signed_integer, 1, "torch.int8"},
    {"int16", element_kind::signed_integer, 2, "torch.int16"},
    {"int32", element_kind::signed_integer, 4, "torch.int32"},
    {"int64", element_kind::signed_integer, 8, "torch.int64"},
    {"uint8", element_kind::unsigned_integer, 1, "torch.uint8"},
    {"uint16", element_kind::unsigned_integer, 2, "torch.uint16"},
    {"uint32", element_kind::unsigned_integer, 4, "torch.uint32"},
    {"uint64", element_kind::unsigned_integer, 8, "torch.uint64"},
}};

constexpr element_type bool_type{"bool", element_kind::boolean, 1, "torch.bool"};

struct named_spelling {
  std::string_view spelling;
  std::string_view canonical;
};

// Type names that are single words (typedefs and CUDA's own types). The builtin integer
// keywords are handled by `builtin_integer`, since C lets them combine in any order.
constexpr std::array<named_spelling, 36> named_spellings = {{
    {"float", "float32"},          {"double", "float64"},
    {"__half", "float16"},         {"half", "float16"},
    {"__nv_half", "float16"},      {"nv_half", "float16"},
    {"cutlass::half_t", "float16"},
    {"__nv_bfloat16", "bfloat16"}, {"nv_bfloat16", "bfloat16"},
    {"cutlass::bfloat16_t", "bfloat16"},
    {"int8_t", "int8"},            {"std::int8_t", "int8"},
    {"int16_t", "int16"},          {"std::int16_t", "int16"},
    {"int32_t", "int32"},          {"std::int32_t", "int32"},
    {"int64_t", "int64"},          {"std::int64_t", "int64"},
    {"uint8_t", "uint8"},          {"std::uint8_t", "uint8"},
    {"uint16_t", "uint16"},        {"std::uint16_t", "uint16"},
    {"uint32_t", "uint32"},        {"std::uint32_t", "uint32"},
    {"uint64_t", "uint64"},        {"std::uint64_t", "uint64"},
    {"size_t", "uint64"},          {"std::size_t", "uint64"},
    {"ssize_t", "int64"},          {"ptrdiff_t", "int64"},
    {"std::ptrdiff_t", "int64"},   {"intptr_t", "int64"},
    {"uintptr_t", "uint64"},       {"std::intptr_t", "int64"},
    {"std::uintptr_t", "uint64"},  {"bool", "bool"},
}};

// Builtin spellings listed in error messages (other orders are accepted too).
constexpr std::array<named_spelling, 17> builtin_spellings = {{
    {"signed char", "int8"},          {"char", "int8"},
    {"unsigned char", "uint8"},       {"short", "int16"},
    {"unsigned short", "uint16"},     {"int", "int32"},
    {"signed", "int32"},              {"unsigned", "uint32"},
    {"unsigned int", "uint32"},       {"long", "int64"},
    {"long int", "int64"},            {"long long", "int64"},
    {"unsigned long", "uint64"},      {"unsigned long long", "uint64"},
    {"short int", "int16"},           {"signed int", "int32"},
    {"long long int", "int64"},
}};

std::vector<std::string_view> split_words(std::string_view spelling) {
  std::vector<std::string_view> words;
  size_t start = 0;
  while (start < spelling.size()) {
    const size_t end = spelling.find(' ', start);
    const size_t stop = end == std::string_view::npos ? spelling.size() : end;
    if (stop > start) words.push_back(spelling.substr(start, stop - start));
    start = stop + 1;
  }
  return words;
}

// "unsigned long int", "long long", "signed char", ... -> canonical integer name.
std::optional<std::string_view> builtin_integer(std::string_view spelling) {
  std::map<std::string_view, int> count;
  const auto words = split_words(spelling);
  if (words.empty()) return std::nullopt;
  for (const auto word : words) {
    if (word != "signed" && word != "unsigned" && word != "char" && word != "short" &&
        word != "int" && word != "long") {
      return std::nullopt;
    }
    ++count[word];
  }
  const int is_signed = count["signed"], is_unsigned = count["unsigned"];
  const int chars = count["char"], shorts = count["short"], ints = count["int"];
  const int longs = count["long"];
  if (is_signed > 1 || is_unsigned > 1 || (is_signed != 0 && is_unsigned != 0)) return std::nullopt;
  if (chars > 1 || shorts > 1 || ints > 1 || longs > 2) return std::nullopt;
  if (chars != 0 && (shorts != 0 || ints != 0 || longs != 0)) return std::nullopt;
  if (shorts != 0 && longs != 0) return std::nullopt;
  const bool u = is_unsigned != 0;
  if (chars != 0) return u ? "uint8" : "int8";
  if (shorts != 0) return u ? "uint16" : "int16";
  if (longs != 0) return u ? "uint64" : "int64";
  return u ? "uint32" : "int32";
}

}  // namespace

int64_t element_type::min_value() const {
  if (kind == element_kind::boolean || kind == element_kind::unsigned_integer) return 0;
  if (size_bytes >= 8) return std::numeric_limits<int64_t>::min();
  return -(int64_t{1} << (8 * size_bytes - 1));
}

int64_t element_type::max_value() const {
  if (kind == element_kind::boolean) return 1;
  const int value_bits = 8 * size_bytes - (kind == element_kind::signed_integer ? 1 : 0);
  if (value_bits >= 63) return std::numeric_limits<int64_t>::max();
  return (int64_t{1} << value_bits) - 1;
}

std::string_view to_string(element_kind kind) {
  switch (kind) {
    case element_kind::floating: return "floating";
    case element_kind::signed_integer: return "signed";
    case element_kind::unsigned_integer: return "unsigned";
    case element_kind::boolean: return "boolean";
  }
  return "unknown";
}

std::optional<element_type> element_type_by_name(std::string_view canonical_name) {
  if (canonical_name == bool_type.name) return bool_type;
  for (const auto& type : canonical_types) {
    if (type.name == canonical_name) return type;
  }
  return std::nullopt;
}

std::vector<element_type> canonical_element_types() {
  std::vector<element_type> types(canonical_types.begin(), canonical_types.end());
  types.push_back(bool_type);
  return types;
}

std::optional<element_type> find_element_type(std::string_view spelling) {
  for (const auto& entry : named_spellings) {
    if (entry.spelling == spelling) return element_type_by_name(entry.canonical);
  }
  if (const auto canonical = builtin_integer(spelling)) return element_type_by_name(*canonical);
  return std::nullopt;
}

std::string supported_type_list() {
  std::string text;
  const auto add_line = [&](std::string_view canonical) {
    std::vector<std::string_view> spellings;
    for (const auto& entry : builtin_spellings) {
      if (entry.canonical == canonical) spellings.push_back(entry.spelling);
    }
    for (const auto& entry : named_spellings) {
      if (entry.canonical == canonical) spellings.push_back(entry.spelling);
    }
    text += fmt::format("  {:<9} {}\n", canonical, fmt::join(spellings, ", "));
  };
  for (const auto& type : canonical_types) add_line(type.name);
  add_line(bool_type.name);
  return text;
}

}  // namespace kopt::kernel
