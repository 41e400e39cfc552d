#pragma once
// The request `kopt compile` makes, whichever front end asks (the command line, the MCP tool):
// one function, so that both build for the same architecture and refuse the same files.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compile/compiler.h"
#include "kernel/backend.h"

namespace kopt::pipeline {

struct compile_options {
  std::filesystem::path kernel_file;         // absolute
  std::optional<kernel::backend> backend;    // none: from the file's name and text
  std::vector<std::string> defines;          // NAME=VALUE
  std::string arch;                          // empty: the GPU's (sm_90a without one)
  int gpu = 0;                               // the device whose architecture is the default
  std::string nvcc_bin;                      // empty: search
};

// Reads the kernel file for its backend. Throws kopt::error for a missing file or a Triton
// module (Triton compiles it when it runs). Without an architecture, the library is built for GPU
// `gpu` when there is one.
compile::compile_request compile_request_of(const compile_options& options);

}  // namespace kopt::pipeline
