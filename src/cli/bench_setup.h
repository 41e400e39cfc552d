#pragma once
// The kernel and reference options `kopt bench`, `kopt profile` and `kopt loop` share, and
// their typed form for the pipelines (pipeline/bench_preparation.h).

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/dimension_options.h"
#include "pipeline/bench_preparation.h"

namespace kopt::cli {

struct bench_target_options {
  // `planner` is the command that plans, for its messages ("kopt bench"); `purpose` is what it
  // needs the GPU for ("time on").
  // `several`: the kernel positional takes one file or more (kernels), else exactly one (kernel).
  bench_target_options(std::string planner, std::string purpose, bool several = false)
      : command_name(std::move(planner)), gpu_purpose(std::move(purpose)), several_kernels(several) {}

  std::string kernel;
  std::vector<std::string> kernels;  // with several_kernels; to_target takes the first
  std::string ref;
  std::string backend;
  dimension_options dimensions;
  std::string arch;
  std::vector<std::string> defines;  // -D NAME[=VALUE]
  int gpu = 0;
  std::string nvcc_bin;
  int timeout = 600;                 // [s] limit of the measuring child
  std::string command_name;
  std::string gpu_purpose;
  bool several_kernels = false;

  // Declares the kernel positional and the options above on `sub`.
  void add_to(CLI::App& sub);

  // The typed target, with the dimensions from --dim and the extras left on `sub`.
  pipeline::bench_target to_target(const CLI::App& sub) const;
};

}  // namespace kopt::cli
