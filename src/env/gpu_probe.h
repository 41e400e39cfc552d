#pragma once
// What the CUDA driver and NVML say about the GPUs. Both libraries are loaded at run time
// (dlopen), so kopt starts and reports clearly on a machine without a driver or GPU.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compile/arch.h"
#include "core/json_io.h"
#include "cuda/nvml_library.h"

namespace kopt::env {

struct gpu_device {
  int ordinal = 0;                       // CUDA device ordinal (after CUDA_VISIBLE_DEVICES)
  std::string name;                      // "NVIDIA H200"
  std::string uuid;                      // "GPU-xxxxxxxx-..."
  compile::compute_capability capability;
  int multiprocessors = 0;
  std::int64_t memory_bytes = 0;         // [bytes] total device memory
  std::int64_t l2_bytes = 0;             // [bytes]
  int sm_clock_max_mhz = 0;              // [MHz] from NVML when available
  int sm_clock_now_mhz = 0;              // [MHz] from NVML when available
  std::string clock_event_reasons;       // NVML's active reasons, "" when none or unknown
  // From NVML, nullopt where it cannot tell: with the fields above, what decides whether two
  // GPUs time a kernel alike (gpu_identity.h).
  std::optional<int> memory_clock_max_mhz;  // [MHz]
  std::optional<int> temperature_c;         // [°C] at the probe
  std::optional<bool> ecc_enabled;          // current mode
  std::optional<cuda::mig_mode> mig_mode;   // current mode
  std::optional<int> power_limit_mw;        // [mW] the enforced limit
};

struct gpu_probe_result {
  bool driver_loaded = false;            // libcuda.so.1 could be loaded
  std::string driver_problem;            // why there is no usable GPU, when there is none
  int driver_cuda_version = 0;           // cuDriverGetVersion, e.g. 13000
  std::string driver_version;            // NVML's "580.159.04", "" without NVML
  std::vector<gpu_device> devices;

  bool has_gpu() const { return !devices.empty(); }
  // nullptr when `ordinal` is not a visible device.
  const gpu_device* device(int ordinal) const;
};

gpu_probe_result probe_gpus();

// 13000 -> "13.0"
std::string format_cuda_version(int version);

json to_json(const gpu_device& device);

}  // namespace kopt::env
