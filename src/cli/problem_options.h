#pragma once
// --seed, and --atol/--rtol: how the inputs are made and how outputs are judged, which several
// commands declare alike (one declaration, one range check each).

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace kopt::cli {

// --seed, bound to `seed` (default 0).
void add_seed_option(CLI::App& sub, std::uint64_t& seed);

// --atol and --rtol, unset unless given; `default_text` follows each one's name in its help and
// says what holds when they are not given ("(default by output type); frozen for the run").
void add_tolerance_options(CLI::App& sub, std::optional<double>& atol, std::optional<double>& rtol,
                           const std::string& default_text);

}  // namespace kopt::cli
