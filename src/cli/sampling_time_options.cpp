#include "cli/sampling_time_options.h"

#include "cli/option_checks.h"

namespace kopt::cli {

void add_sampling_time_options(CLI::App& sub, harness::bench_job& job) {
  sub.add_option("--min-seconds", job.sampling.min_seconds,
                 "sampling time per version, at least, before the stopping rule may end it [s]")
      ->default_val(job.sampling.min_seconds)
      ->check(within(0.0, longest_seconds, "seconds"));
  sub.add_option("--max-seconds", job.sampling.max_seconds, "sampling time limit per version [s]")
      ->default_val(10.0)
      ->check(seconds_limit<double>());
}

}  // namespace kopt::cli
