#include "cli/option_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace kopt::cli::option_checks_detail {
namespace {

// A bound as a person writes it: 10000, 2147483647; 1.8e+19 where it is a type's own limit.
std::string bound_text(long double value) {
  if (std::fabs(value) >= 1e15L) return fmt::format("{:g}", static_cast<double>(value));
  return fmt::format("{}", static_cast<double>(value));
}

// An option's range, and the one sentence of each way a value misses it.
struct bounds {
  long double low;
  long double high;
  bool above_low;  // low itself is refused (a time limit of 0)
  number_kind kind;
  std::string unit;

  // What to give, after "give " (and what CLI11's help shows beside the option).
  std::string wanted() const {
    const bool unbounded = high >= 1e18L;
    if (above_low && low == 0) {
      return unbounded ? "a positive number" : fmt::format("a positive number up to {}", bound_text(high));
    }
    if (unbounded) return fmt::format("{} or more", bound_text(low));
    return fmt::format("{} from {} to {}", kind.whole ? "a whole number" : "a number", bound_text(low),
                       bound_text(high));
  }
  std::string too_few(const std::string& text) const {
    if (above_low && low == 0) return fmt::format("{} is not above 0: give a positive number ({})", text, unit);
    return fmt::format("{} is too few: give {} or more ({})", text, bound_text(low), unit);
  }
  std::string too_large(const std::string& text) const {
    return fmt::format("{} is too large: give at most {} ({})", text, bound_text(high), unit);
  }
  std::string refused(const std::string& text, const char* why) const {
    return fmt::format("{} is {}: give {} ({})", text, why, wanted(), unit);
  }
  std::string check(const std::string& text, long double value) const {
    if (value < low || (above_low && value == low)) return too_few(text);
    if (value > high) return too_large(text);
    return "";
  }
};

// The text as a floating-point number, when all of it is one.
bool reads_as_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end != text.c_str() && *end == '\0';
}

std::string check_whole(const bounds& range, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  long double value = 0;
  // As CLI11 reads it (base 0: 0x10 is 16), but an overflow is said, never saturated.
  const std::size_t first = text.find_first_not_of(" \t");
  if (range.kind.is_unsigned && first != std::string::npos && text[first] == '-') {
    double number = 0;
    return reads_as_number(text, number) ? range.too_few(text) : "";
  }
  if (range.kind.is_unsigned) {
    value = static_cast<long double>(std::strtoull(text.c_str(), &end, 0));
  } else {
    value = static_cast<long double>(std::strtoll(text.c_str(), &end, 0));
  }
  if (text.empty() || end == text.c_str() || *end != '\0') {
    double number = 0;
    if (!reads_as_number(text, number)) return "";  // not a number at all: CLI11 says so
    return range.refused(text, std::isfinite(number) ? "not a whole number" : "not a finite number");
  }
  if (errno == ERANGE) return text.front() == '-' ? range.too_few(text) : range.too_large(text);
  return range.check(text, value);
}

std::string check_number(const bounds& range, const std::string& text) {
  double value = 0;
  if (!reads_as_number(text, value)) return "";  // not a number: CLI11 says so
  if (!std::isfinite(value)) return range.refused(text, "not a finite number");
  return range.check(text, value);
}

}  // namespace

CLI::Validator range_check(long double low, long double high, bool above_low, number_kind kind,
                           const std::string& unit) {
  const bounds range{low, high, above_low, kind, unit};
  CLI::Validator check(
      [range](std::string& text) { return range.kind.whole ? check_whole(range, text) : check_number(range, text); },
      range.wanted());
  return check.name(range_check_name);
}

}  // namespace kopt::cli::option_checks_detail

namespace kopt::cli {

CLI::Validator text_check(std::function<std::string(const std::string&)> problem, const std::string& description) {
  return CLI::Validator([problem = std::move(problem)](std::string& text) { return problem(text); }, description);
}

}  // namespace kopt::cli
