#pragma once
// The limits of numeric options, one rule for every one of them, checked on the value as it is
// given before CLI11 converts it: a number of the option's kind (a whole number for an integer
// option, read as CLI11 then reads it, so that a value it would saturate or wrap, such as
// 99999999999999999999 or -1 for an unsigned seed, is never taken for another), finite, and
// within the option's bounds. Failures read as kopt's other errors do:
//   kopt loop: --max-iterations: 99999999999999999999 is too large: give at most 10000 (iterations)
//   kopt bench: --max-seconds: inf is not a finite number: give a positive number up to 1000000 (seconds)
// A value that is no number at all is left to CLI11 ("--warmup abc: not a valid value").

#include <functional>
#include <limits>
#include <string>
#include <type_traits>

#include <CLI/CLI.hpp>

namespace kopt::cli {

// The name every range check carries (option_limits_gtest checks that every numeric option has one).
inline constexpr const char* range_check_name = "kopt-range";

// [s] the longest time limit an option takes: beyond it a time is a typo, and in milliseconds
// it would no longer fit kopt's clocks.
inline constexpr double longest_seconds = 1e6;

namespace option_checks_detail {
struct number_kind {
  bool whole = false;        // an integer option
  bool is_unsigned = false;  // whose type has no sign (a leading '-' would wrap)
};
CLI::Validator range_check(long double low, long double high, bool above_low, number_kind kind,
                           const std::string& unit);
template <typename T>
constexpr number_kind kind_of() {
  return {std::is_integral_v<T>, std::is_unsigned_v<T>};
}
}  // namespace option_checks_detail

// `low` <= value <= `high`. T is the option's type (an integer or a floating-point type).
template <typename T>
CLI::Validator within(T low, T high, const std::string& unit) {
  return option_checks_detail::range_check(low, high, false, option_checks_detail::kind_of<T>(), unit);
}

// `minimum` or more, up to the largest value of T.
template <typename T>
CLI::Validator at_least(T minimum, const std::string& unit) {
  return within(minimum, std::numeric_limits<T>::max(), unit);
}

// Above 0, up to `high`.
template <typename T>
CLI::Validator above_zero(T high, const std::string& unit) {
  return option_checks_detail::range_check(0, high, true, option_checks_detail::kind_of<T>(), unit);
}

// A time limit [s] held in a T: above 0, up to longest_seconds.
template <typename T>
CLI::Validator seconds_limit() {
  return above_zero(static_cast<T>(longest_seconds), "seconds");
}

// A check of a text option by kopt's own reader of it: `problem` says what is wrong with a
// value ("" when nothing), and the option is refused with that as its message.
CLI::Validator text_check(std::function<std::string(const std::string&)> problem, const std::string& description);

}  // namespace kopt::cli
