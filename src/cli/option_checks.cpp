#include "cli/option_checks.h"

#include <cstdlib>

#include <fmt/format.h>

namespace kopt::cli {
namespace {

// The text as a number, or nothing (CLI11 reports a value that does not parse itself).
bool as_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0';
}

}  // namespace

CLI::Validator at_least(double minimum, const std::string& unit) {
  return CLI::Validator(
      [minimum, unit](std::string& text) -> std::string {
        double value = 0;
        if (!as_number(text, value) || value >= minimum) return "";
        return fmt::format("{} is too few: give {} or more ({})", text, minimum, unit);
      },
      fmt::format("{} or more", minimum));
}

CLI::Validator above_zero(const std::string& unit) {
  return CLI::Validator(
      [unit](std::string& text) -> std::string {
        double value = 0;
        if (!as_number(text, value) || value > 0) return "";
        return fmt::format("{} is not above 0: give a positive number ({})", text, unit);
      },
      "above 0");
}

}  // namespace kopt::cli
