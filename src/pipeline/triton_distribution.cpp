#include "pipeline/triton_distribution.h"

#include <cmath>

namespace kopt::pipeline {

namespace {

// `facts` holds min and max.
kernel::value_distribution fitted(const kernel::element_type& type, const json& facts) {
  const bool integral = !type.is_floating();
  kernel::value_distribution values;
  if (facts.contains("distinct") && facts["distinct"].is_array() && !facts["distinct"].empty()) {
    values.kind = kernel::distribution_kind::choice;
    for (const auto& v : facts["distinct"]) {
      if (integral) {
        values.choices.emplace_back(static_cast<std::int64_t>(std::llround(v.get<double>())));
      } else {
        values.choices.emplace_back(v.get<double>());
      }
    }
    return values;
  }
  const double low = facts["min"].get<double>();
  const double high = facts["max"].get<double>();
  if (integral) {
    values.kind = kernel::distribution_kind::uniform;
    values.low = static_cast<std::int64_t>(std::llround(low));
    values.high = static_cast<std::int64_t>(std::llround(high)) + 1;  // [min, max]
    return values;
  }
  const double mean = facts.value("mean", 0.0);
  const double spread = facts.value("std", 0.0);
  if (spread > 0 && low < mean - 3 * spread && high > mean + 3 * spread) {
    values.kind = kernel::distribution_kind::normal;
    values.mean = mean;
    values.stddev = spread;
    return values;
  }
  values.kind = kernel::distribution_kind::uniform;
  values.low = low;
  values.high = high;
  return values;
}

}  // namespace

kernel::value_distribution fitted_distribution(const kernel::element_type& type, const json& facts) {
  // No finite value to go by (an empty tensor, all NaN): the element type's default.
  if (!facts.is_object() || !facts.contains("min") || !facts.contains("max")) return kernel::default_distribution(type);
  kernel::value_distribution values = fitted(type, facts);
  values.fitted_to_setup = true;
  return values;
}

}  // namespace kopt::pipeline
