#pragma once
// The GPU a measuring child works on: the driver loaded, the primary context current, and the
// device facts both children need (L2 size for the flush, UUID for the other-processes check,
// DRAM figures for the physical floor).

#include <string>

#include <cuda.h>

#include "cuda/driver_api.h"

namespace kopt::harness {

struct gpu_context {
  const cuda::driver_api* api = nullptr;
  CUdevice device = 0;
  int l2_bytes = 0;
  std::string uuid;
};

// Device 0 (the parent makes the chosen GPU the only visible one). Throws kopt::error when the
// driver cannot be loaded or no GPU can be used.
gpu_context open_gpu_context();

// Waits for the device; a failure throws kopt::error "WHAT failed: ...". For kopt's own work
// (making inputs), where an error means the machine, not the code under test, is at fault.
void synchronize(const cuda::driver_api& api, const char* what);

// [bytes/s] the device's DRAM can move at most (from its memory clock and bus width).
double device_peak_dram_bandwidth(const gpu_context& gpu);

}  // namespace kopt::harness
