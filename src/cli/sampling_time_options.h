#pragma once
// --min-seconds and --max-seconds, which `kopt bench` and `kopt loop` declare alike: how long a
// version's sampling lasts at least and at most (docs/timing.md).

#include <CLI/CLI.hpp>

#include "harness/bench_job.h"

namespace kopt::cli {

// Declares both options on `sub`, bound to `job`'s fields, with their defaults and range checks.
void add_sampling_time_options(CLI::App& sub, harness::bench_job& job);

}  // namespace kopt::cli
