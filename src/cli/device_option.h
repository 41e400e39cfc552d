#pragma once
// --gpu, the CUDA device ordinal every command that uses a GPU takes: 0 unless given, and never
// negative (one declaration, one range check).

#include <string>

#include <CLI/CLI.hpp>

namespace kopt::cli {

// --gpu, bound to `gpu`; `description` says what the command uses the device for.
void add_gpu_option(CLI::App& sub, int& gpu, const std::string& description);

}  // namespace kopt::cli
