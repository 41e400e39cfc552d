#include "report/html_text.h"

#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace kopt::report {

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string exact_number(double value) { return fmt::format("{}", value); }

std::string short_number(const std::optional<double>& value, int digits) {
  if (!value) return "n/a";
  return fmt::format("{:.{}g}", *value, digits);
}

std::string si_number(double value) {
  static constexpr std::array<std::pair<double, const char*>, 9> prefixes = {{{1e15, "P"},
                                                                               {1e12, "T"},
                                                                               {1e9, "G"},
                                                                               {1e6, "M"},
                                                                               {1e3, "k"},
                                                                               {1, ""},
                                                                               {1e-3, "m"},
                                                                               {1e-6, "µ"},
                                                                               {1e-9, "n"}}};
  const double magnitude = std::fabs(value);
  if (magnitude == 0 || !std::isfinite(value)) return fmt::format("{:g}", value);
  for (const auto& [scale, prefix] : prefixes) {
    // 0.9995 of a step rounds up to the next prefix's "1" rather than printing "1e+03 k".
    if (magnitude >= scale * 0.9995) {
      const std::string digits = fmt::format("{:.3g}", value / scale);
      return *prefix == '\0' ? digits : digits + " " + prefix;
    }
  }
  return fmt::format("{:.3g}", value);
}

std::string fact_row(const char* name, const std::string& value_html) {
  return fmt::format("<dt>{}</dt><dd>{}</dd>\n", name, value_html);
}

}  // namespace kopt::report
