#include "cli/problem_options.h"

#include "cli/option_checks.h"

namespace kopt::cli {

void add_seed_option(CLI::App& sub, std::uint64_t& seed) {
  sub.add_option("--seed", seed, "seed of the random inputs")
      ->default_val(0)
      ->check(at_least<std::uint64_t>(0, "a seed"));
}

void add_tolerance_options(CLI::App& sub, std::optional<double>& atol, std::optional<double>& rtol,
                           const std::string& default_text) {
  sub.add_option("--atol", atol, "absolute tolerance " + default_text)
      ->check(at_least(0.0, "a tolerance"));
  sub.add_option("--rtol", rtol, "relative tolerance " + default_text)
      ->check(at_least(0.0, "a tolerance"));
}

}  // namespace kopt::cli
