#pragma once
// Element types of solve()'s parameters: the C/CUDA spellings kopt accepts and the canonical
// record each maps to (name, kind, size, torch dtype) that buffers, tolerances and the
// Python side agree on.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::kernel {

enum class element_kind { floating, signed_integer, unsigned_integer, boolean };

struct element_type {
  std::string_view name;         // canonical: "float32", "bfloat16", "int32", "uint8", "bool"
  element_kind kind = element_kind::floating;
  int size_bytes = 0;            // [bytes]
  std::string_view torch_dtype;  // "torch.float32"

  bool is_floating() const { return kind == element_kind::floating; }
  bool is_integer() const {
    return kind == element_kind::signed_integer || kind == element_kind::unsigned_integer;
  }
  // Smallest and largest value of an integer or boolean type, clamped to the int64 range
  // (kopt's integer arithmetic is int64). Meaningless for floating types.
  int64_t min_value() const;
  int64_t max_value() const;

  friend bool operator==(const element_type& a, const element_type& b) { return a.name == b.name; }
};

std::string_view to_string(element_kind kind);

// `spelling` is the type as written without cv-qualifiers, words separated by single spaces
// and `::` unspaced: "float", "unsigned long long", "long unsigned int", "std::int32_t",
// "__nv_bfloat16". Builtin integer keywords may come in any order, as C allows.
// Sizes follow LP64 Linux: long is 8 bytes, char is signed.
std::optional<element_type> find_element_type(std::string_view spelling);

// The canonical record for a canonical name ("float32", ...), if there is one.
std::optional<element_type> element_type_by_name(std::string_view canonical_name);

// Every canonical type (bool last), e.g. for tables that must cover them all.
std::vector<element_type> canonical_element_types();

// One line per canonical type with the spellings that map to it, for error details.
std::string supported_type_list();

}  // namespace kopt::kernel
