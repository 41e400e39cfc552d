#pragma once
// --warmup, --repeat, --min-seconds and --max-seconds, which `kopt bench` and `kopt loop` declare
// alike: how a version is sampled (docs/timing.md). Their defaults are measure::sampling_settings'.

#include <CLI/CLI.hpp>

#include "measure/sampling_settings.h"

namespace kopt::cli {

// Declares the four options on `sub`, bound to `settings`' fields, with their defaults and range checks.
void add_sampling_options(CLI::App& sub, measure::sampling_settings& settings);

}  // namespace kopt::cli
