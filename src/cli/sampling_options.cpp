#include "cli/sampling_options.h"

#include <fmt/format.h>

#include "cli/option_checks.h"

namespace kopt::cli {

// The limits are the job document's (measure/sampling_settings.h), so that a value the command
// takes is one every child reads.
void add_sampling_options(CLI::App& sub, measure::sampling_settings& settings) {
  const measure::sampling_settings defaults;
  sub.add_option("--warmup", settings.warmup,
                 "calls before sampling, at least; then until the median of the last 5 stops moving (1 %, at most 1 s)")
      ->default_val(defaults.warmup)
      ->check(within(0, static_cast<int>(measure::most_warmup_calls), "calls"));
  sub.add_option("--repeat", settings.repeat,
                 fmt::format("samples, at least (never fewer than {}, which the median's interval needs); more "
                             "until the median is stable",
                             measure::fewest_samples))
      ->default_val(defaults.repeat)
      ->check(within(1, static_cast<int>(measure::most_samples), "samples"));
  sub.add_option("--min-seconds", settings.min_seconds,
                 "sampling time per version, at least, before the stopping rule may end it [s]")
      ->default_val(defaults.min_seconds)
      ->check(within(0.0, measure::most_sampling_seconds, "seconds"));
  sub.add_option("--max-seconds", settings.max_seconds, "sampling time limit per version [s]")
      ->default_val(defaults.max_seconds)
      ->check(above_zero(measure::most_sampling_seconds, "seconds"));
}

}  // namespace kopt::cli
