#pragma once
// Which tolerances a comparison uses: an explicit --atol/--rtol wins, then the reference
// module's `atol`/`rtol` attributes, then a default by the output's element type
// (float32 1e-4/1e-3 as in the Python toolkit, float16/bfloat16 1e-2/1e-2, float64
// 1e-8/1e-6, integers and bool exact). The source of each value is recorded.

#include <optional>
#include <string>
#include <string_view>

#include "core/json_io.h"
#include "kernel/element_type.h"

namespace kopt::validate {

struct tolerance {
  double atol = 0;
  double rtol = 0;
  bool exact = false;        // integers and bool: bit-for-bit equality
  std::string atol_source;   // "--atol", "reference module", "default for float32"
  std::string rtol_source;
};

struct tolerance_overrides {
  std::optional<double> flag_atol;       // --atol
  std::optional<double> flag_rtol;       // --rtol
  std::optional<double> reference_atol;  // the reference module's attribute
  std::optional<double> reference_rtol;
};

tolerance default_tolerance(const kernel::element_type& type);

tolerance resolve_tolerance(const kernel::element_type& type, const tolerance_overrides& overrides);

json to_json(const tolerance& t);

}  // namespace kopt::validate
