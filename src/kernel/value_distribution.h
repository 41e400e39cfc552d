#pragma once
// What an input buffer is filled with: uniform in [low, high), a choice among values, or a
// normal distribution. From the annotation, else a default per element type:
//   floating  uniform [-1, 1)
//   signed    uniform [-100, 100)
//   unsigned  uniform [0, 100)
//   bool      one of {0, 1}
// Integer buffers keep exact int64 bounds; floating ones use doubles.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/json_io.h"
#include "kernel/annotation.h"
#include "kernel/element_type.h"
#include "kernel/expression.h"

namespace kopt::kernel {

using element_value = std::variant<int64_t, double>;

struct value_distribution {
  distribution_kind kind = distribution_kind::uniform;
  element_value low = int64_t{0};   // uniform: [low, high)
  element_value high = int64_t{0};
  std::vector<element_value> choices;  // choice
  double mean = 0.0;                   // normal
  double stddev = 0.0;
  bool from_annotation = false;
  int line = 0;                        // of the annotation item, when from_annotation
  bool fitted_to_setup = false;        // drawn like the values a Triton setup() returned

  // "uniform [-1, 1)", "one of {0, 1}", "normal(mean 0, std 0.5)"
  std::string describe() const;
};

std::string format_value(const element_value& value);
// The value as a double (an integer bound converted).
double to_double(const element_value& value);

// {"kind": "uniform", "low", "high"} (high exclusive), {"kind": "choice", "values"},
// {"kind": "normal", "mean", "std"}, each with "source" ("annotation" with its "line",
// "setup()", or "default").
json to_json(const value_distribution& values);
// Reads the kind and its numbers back (not the source). Throws kopt::error when malformed.
value_distribution value_distribution_from_json(const json& document);

value_distribution default_distribution(const element_type& type);

// Evaluates an annotation item's numbers with the dimensions. Throws kopt::error (naming
// the file, line and buffer) for an empty range, values that do not fit the element type,
// a non-positive standard deviation, and overflow in an expression.
value_distribution evaluate_distribution(const values_item& item, const element_type& type,
                                         const int_expression::name_lookup& dimensions,
                                         std::string_view file_label);

}  // namespace kopt::kernel
