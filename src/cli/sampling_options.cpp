#include "cli/sampling_options.h"

#include <fmt/format.h>

#include "cli/option_checks.h"

namespace kopt::cli {

void add_sampling_options(CLI::App& sub, measure::sampling_settings& settings) {
  const measure::sampling_settings defaults;
  sub.add_option("--warmup", settings.warmup,
                 "calls before sampling, at least; then until the median of the last 5 stops moving (1 %, at most 1 s)")
      ->default_val(defaults.warmup)
      ->check(at_least(0, "calls"));
  sub.add_option("--repeat", settings.repeat,
                 fmt::format("samples, at least (never fewer than {}, which the median's interval needs); more "
                             "until the median is stable",
                             measure::fewest_samples))
      ->default_val(defaults.repeat)
      ->check(at_least(1, "samples"));
  sub.add_option("--min-seconds", settings.min_seconds,
                 "sampling time per version, at least, before the stopping rule may end it [s]")
      ->default_val(defaults.min_seconds)
      ->check(at_least(0, "seconds"));
  sub.add_option("--max-seconds", settings.max_seconds, "sampling time limit per version [s]")
      ->default_val(defaults.max_seconds)
      ->check(above_zero("seconds"));
}

}  // namespace kopt::cli
