#pragma once
// The kernel and reference options `kopt bench` and `kopt profile` share, and their typed form
// for the pipelines (pipeline/bench_preparation.h).

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline/bench_preparation.h"

namespace kopt::cli {

struct bench_target_options {
  std::string kernel;
  std::string ref;
  std::string backend;
  std::vector<std::string> dims;     // --dim NAME=VALUE
  std::int64_t ptr_size = 0;
  std::string arch;
  std::vector<std::string> defines;  // -D NAME[=VALUE]
  int gpu = 0;
  std::string nvcc_bin;
  int timeout = 600;                 // [s] limit of the measuring child
  // Which command plans, for its messages ("kopt bench"), and what it needs the GPU for.
  std::string command_name = "kopt bench";
  std::string gpu_purpose = "time on";

  // Declares the kernel positional and the options above on `sub` (which must allow extras:
  // dimensions arrive as --NAME=VALUE).
  void add_to(CLI::App& sub);

  // The typed target, with the dimensions from --dim and the extras left on `sub`.
  pipeline::bench_target to_target(const CLI::App& sub) const;
};

}  // namespace kopt::cli
