#pragma once
// --dim NAME=VALUE and --ptr-size: the problem's dimensions as the commands that run a kernel
// (bench, profile, loop, compare) take them, and what they set in the pipeline's target.

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline/bench_preparation.h"

namespace kopt::cli {

struct dimension_options {
  std::vector<std::string> dims;  // --dim NAME=VALUE
  std::int64_t ptr_size = 0;      // [elements] of a buffer without an annotated size; 0: none given

  // Declares --dim and --ptr-size on `sub`, and lets `sub` keep the words it does not know:
  // dimensions arrive as --NAME=VALUE too.
  void add_to(CLI::App& sub);

  // Sets the target's dimensions (from --dim and the extras left on `sub`), its ptr_size and
  // the flag names a dimension must not take.
  void fill(pipeline::bench_target& target, const CLI::App& sub) const;
};

}  // namespace kopt::cli
