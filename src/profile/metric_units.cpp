#include "profile/metric_units.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <utility>

#include "core/text.h"

namespace kopt::profile {
namespace {

struct scaled_token {
  double factor;
  std::string_view base;
};

// Time, data and frequency spellings ncu uses, long and short forms.
constexpr std::array<std::pair<std::string_view, scaled_token>, 26> known_tokens = {{
    {"psecond", {1e-12, "second"}}, {"nsecond", {1e-9, "second"}}, {"usecond", {1e-6, "second"}},
    {"msecond", {1e-3, "second"}},  {"second", {1.0, "second"}},   {"ps", {1e-12, "second"}},
    {"ns", {1e-9, "second"}},       {"us", {1e-6, "second"}},      {"ms", {1e-3, "second"}},
    {"s", {1.0, "second"}},         {"byte", {1.0, "byte"}},       {"Kbyte", {1e3, "byte"}},
    {"Mbyte", {1e6, "byte"}},       {"Gbyte", {1e9, "byte"}},      {"Tbyte", {1e12, "byte"}},
    {"Pbyte", {1e15, "byte"}},      {"hz", {1.0, "hz"}},           {"Khz", {1e3, "hz"}},
    {"Mhz", {1e6, "hz"}},           {"Ghz", {1e9, "hz"}},          {"Hz", {1.0, "hz"}},
    {"KHz", {1e3, "hz"}},           {"MHz", {1e6, "hz"}},          {"GHz", {1e9, "hz"}},
    {"bit", {0.125, "byte"}},       {"Kbit", {125.0, "byte"}},
}};

// Counted things ncu may scale with K/M/G ("Kinst", "Mcycle"); the bare names pass unchanged.
constexpr std::array<std::string_view, 10> countable = {
    "inst", "cycle", "sector", "request", "warp", "thread", "block", "register", "wavefront",
    "transaction"};

std::optional<scaled_token> convert_token(std::string_view token) {
  for (const auto& [name, scaled] : known_tokens) {
    if (token == name) return scaled;
  }
  if (token.size() > 1) {
    double factor = 0;
    switch (token.front()) {
      case 'K': factor = 1e3; break;
      case 'M': factor = 1e6; break;
      case 'G': factor = 1e9; break;
      default: break;
    }
    const std::string_view rest = token.substr(1);
    for (std::string_view name : countable) {
      if (factor > 0 && rest == name) return scaled_token{factor, name};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> parse_metric_number(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  std::string digits;
  digits.reserve(text.size());
  for (char c : text) {
    if (c != ',') digits += c;
  }
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  if (end == digits.c_str() || *end != '\0' || errno == ERANGE) return std::nullopt;
  // strtod also reads "nan", "inf" and hex floats; ncu writes none of them as numbers.
  const char first = digits.front();
  if (!(first == '-' || first == '+' || first == '.' || (first >= '0' && first <= '9'))) {
    return std::nullopt;
  }
  return value;
}

unit_conversion convert_unit(std::string_view unit) {
  unit = trim(unit);
  unit_conversion out;
  const size_t slash = unit.find('/');
  const std::string_view numerator = unit.substr(0, slash);
  const std::string_view denominator =
      slash == std::string_view::npos ? std::string_view{} : unit.substr(slash + 1);

  std::string base;
  if (auto n = convert_token(numerator)) {
    out.factor *= n->factor;
    base = n->base;
  } else {
    base = numerator;
  }
  if (!denominator.empty()) {
    if (auto d = convert_token(denominator)) {
      out.factor /= d->factor;
      base += "/" + std::string(d->base);
    } else {
      base += "/" + std::string(denominator);
    }
  }
  out.base_unit = base;
  return out;
}

bool is_ncu_base_unit(std::string_view unit) {
  return trim(unit) == "ns" || convert_unit(unit).factor == 1.0;
}

}  // namespace kopt::profile
