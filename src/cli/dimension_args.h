#pragma once
// Dimensions and scalar values given on the command line: `--NAME=VALUE`, `--NAME VALUE`
// (the Python toolkit's style, whatever kopt does not know as its own flag) and
// `--dim NAME=VALUE` (which always works, also for names that collide with kopt's flags).

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kernel/dimensions.h"

namespace kopt::cli {

using kernel::dimension_arg;

// `extras` are the arguments CLI11 did not recognise (App::remaining()), `dim_flags` the
// values of --dim. Throws kopt::error for anything that is neither (a stray positional,
// a flag without a value, the same name twice).
std::vector<dimension_arg> collect_dimension_args(const std::vector<std::string>& extras,
                                                  const std::vector<std::string>& dim_flags);

// Long option names of `sub` (without dashes): names a kernel scalar must not use
// unless it is passed through --dim.
std::vector<std::string> own_flag_names(const CLI::App& sub);

}  // namespace kopt::cli
