#pragma once
// Building a kernel source into a shared library with nvcc, through a cache keyed by the
// source and its local headers, the flags, the nvcc version and the CUTLASS version.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compile/arch.h"
#include "compile/resource_report.h"
#include "kernel/backend.h"

namespace kopt::compile {

struct compile_request {
  std::filesystem::path kernel_file;
  kernel::backend backend = kernel::backend::cuda;
  std::vector<std::string> defines;          // "NAME=VALUE" or "NAME" (-D)
  std::string arch;                          // --arch; empty: default for `device`
  std::optional<compute_capability> device;  // the GPU the library is for, if any
  std::string nvcc_bin;                      // --nvcc-bin; empty: search
  std::chrono::seconds timeout{600};
  bool announce = true;  // say on a terminal that nvcc runs (a build in the background keeps quiet)
};

enum class compile_status { built, cache_hit, failed };

struct compile_result {
  compile_status status = compile_status::failed;
  std::string failure_reason;             // when failed: "nvcc exit code 2", "timed out"
  std::filesystem::path library;          // absolute path of the .so (when not failed)
  std::vector<std::string> command;       // the nvcc command line
  std::string compiler_output;            // nvcc's stdout + stderr
  std::vector<kernel_resources> kernels;  // one per __global__ function
  std::string cache_key;
  arch_target arch;
  std::string nvcc_path;
  std::string nvcc_version;
  std::string cutlass_version;           // when the backend is cutlass
  double build_seconds = 0;              // [s] nvcc's run when the entry was built
  std::chrono::milliseconds elapsed{0};  // this call, hit or miss

  bool ok() const { return status != compile_status::failed; }
};

// Throws kopt::error for environment problems (nvcc or CUTLASS missing, bad --arch);
// a compile error of the kernel is a result with status failed.
compile_result compile_kernel(const compile_request& request);

}  // namespace kopt::compile
