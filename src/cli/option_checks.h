#pragma once
// Range checks for numeric options, whose failures read as the rest of kopt's errors do:
// "kopt bench: --repeat: 0 is too few: give 1 or more (samples)".

#include <string>

#include <CLI/CLI.hpp>

namespace kopt::cli {

// The option's value must be a number of at least `minimum`; `unit` says what it counts.
CLI::Validator at_least(double minimum, const std::string& unit);

// The value must be a number above 0.
CLI::Validator above_zero(const std::string& unit);

}  // namespace kopt::cli
