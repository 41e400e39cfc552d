#pragma once
// What every measured document says of where it was measured and on what: the files, the GPU
// and its driver, the build, the seed, the problem's size and signature. A bench result and a
// profile carry it alike.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/document.h"

namespace kopt::pipeline {

struct run_provenance {
  std::string kernel_file;
  std::string reference_file;
  std::string backend;  // cuda, cutlass, triton
  std::string gpu_name;
  std::string gpu_uuid;
  std::string arch;
  std::string driver_version;
  std::string driver_cuda_version;
  std::optional<std::vector<std::string>> nvcc_command;  // argv; none for Triton
  std::string nvcc_version;
  std::uint64_t seed = 0;
  std::int64_t buffer_bytes = 0;  // [bytes] the buffers one call touches (0 when unknown)
  std::string signature;          // solve(...) or run_kernel(...)
  json dims = nullptr;            // the dimensions as the kernel got them
};
BOOST_DESCRIBE_STRUCT(run_provenance, (),
                      (kernel_file, reference_file, backend, gpu_name, gpu_uuid, arch, driver_version,
                       driver_cuda_version, nvcc_command, nvcc_version, seed, buffer_bytes, signature, dims))

}  // namespace kopt::pipeline
