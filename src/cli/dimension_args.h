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
// a flag without a value, the same name twice). With `sub` (the command whose extras they
// are), a word that reads as a mistyped option of `sub` rather than a dimension (`--reff x.py`,
// `--hott`: a name close to one of its options, without a number for a value) is refused with
// the option it resembles.
std::vector<dimension_arg> collect_dimension_args(const std::vector<std::string>& extras,
                                                  const std::vector<std::string>& dim_flags,
                                                  const CLI::App* sub = nullptr);

// `args` (the words after the subcommand's name) with every `--NAME VALUE` pair that is not
// one of `sub`'s options and whose VALUE is a number written as `--NAME=VALUE`. Without it,
// `kopt inspect --N 5 k.cu` would give 5 to the kernel positional: CLI11 cannot know that an
// unknown option takes a value. After `--` kopt reads no option of its own: `--NAME=VALUE` and
// `--NAME VALUE` become `--dim NAME=VALUE` (a dimension whatever its name, --seed included),
// and other words are positionals (a kernel file named -x.cu is passed as ./-x.cu).
std::vector<std::string> attach_dimension_values(const CLI::App& sub, const std::vector<std::string>& args);

// Long option names of `sub` (without dashes): names a kernel scalar must not use
// unless it is passed through --dim.
std::vector<std::string> own_flag_names(const CLI::App& sub);

}  // namespace kopt::cli
