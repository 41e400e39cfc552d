#include "measure/interval_text.h"

#include <fmt/format.h>

namespace kopt::measure {

std::string interval_text(const std::optional<interval_bounds>& bounds, std::string_view number_format) {
  if (!bounds) return "n/a";
  return fmt::format("[{}, {}]", fmt::format(fmt::runtime(number_format), (*bounds)[0]),
                     fmt::format(fmt::runtime(number_format), (*bounds)[1]));
}

std::string interval_after(const std::optional<interval_bounds>& bounds, std::string_view number_format) {
  return bounds ? " " + interval_text(bounds, number_format) : "";
}

std::optional<interval_bounds> interval_of(const json& pair) {
  if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_number()) return std::nullopt;
  return interval_bounds{pair[0].get<double>(), pair[1].get<double>()};
}

}  // namespace kopt::measure
