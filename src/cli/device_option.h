#pragma once
// --gpu, the CUDA device ordinal every command that uses a GPU takes: 0 unless given, and never
// negative (one declaration, one range check); and --gpus, the GPUs a command spreads its work
// over (loop's candidates, compare's comparisons, bench's kernels).

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "env/gpu_probe.h"

namespace kopt::cli {

// --gpu, bound to `gpu`; `description` says what the command uses the device for.
void add_gpu_option(CLI::App& sub, int& gpu, const std::string& description);

// --gpus, bound to `gpus`; `what` says what is spread ("spread the kernels").
void add_gpus_option(CLI::App& sub, std::string& gpus, const std::string& what);

// The GPUs a command runs on: --gpu's one when --gpus is not given, else those --gpus chooses
// (pipeline/gpu_choice.h), each one left out said on stderr. Throws kopt::error (one line) for
// both options at once and for a choice that leaves no GPU.
std::vector<int> gpus_to_use(const CLI::App& sub, const std::string& gpus, int gpu,
                             const env::gpu_probe_result& probe);

}  // namespace kopt::cli
