#include "validate/tolerance.h"

#include <fmt/format.h>

namespace kopt::validate {

tolerance default_tolerance(const kernel::element_type& type) {
  tolerance t;
  const std::string source = fmt::format("default for {}", type.name);
  t.atol_source = source;
  t.rtol_source = source;
  if (!type.is_floating()) {
    t.exact = true;
  } else if (type.name == "float64") {
    t.atol = 1e-8;
    t.rtol = 1e-6;
  } else if (type.name == "float16" || type.name == "bfloat16") {
    t.atol = 1e-2;
    t.rtol = 1e-2;
  } else {
    t.atol = 1e-4;
    t.rtol = 1e-3;
  }
  return t;
}

tolerance resolve_tolerance(const kernel::element_type& type, const tolerance_overrides& overrides) {
  tolerance t = default_tolerance(type);
  // Integers stay exact unless the user asks for a tolerance explicitly.
  const auto apply = [&](std::optional<double> value, double& field, std::string& source, const char* name) {
    if (!value) return false;
    field = *value;
    source = name;
    return true;
  };
  const bool reference_given = type.is_floating() &&
                               (apply(overrides.reference_atol, t.atol, t.atol_source, "reference module") |
                                apply(overrides.reference_rtol, t.rtol, t.rtol_source, "reference module"));
  const bool flag_given = apply(overrides.flag_atol, t.atol, t.atol_source, "--atol") |
                          apply(overrides.flag_rtol, t.rtol, t.rtol_source, "--rtol");
  if (flag_given || reference_given) t.exact = false;
  if (!type.is_floating() && !flag_given) t.exact = true;
  return t;
}

json to_json(const tolerance& t) {
  return json{{"atol", t.atol}, {"rtol", t.rtol}, {"exact", t.exact},
              {"atol_source", t.atol_source}, {"rtol_source", t.rtol_source}};
}

}  // namespace kopt::validate
