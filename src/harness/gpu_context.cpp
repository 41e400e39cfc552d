#include "harness/gpu_context.h"

#include <fmt/format.h>

#include "core/error.h"
#include "harness/physical_floor.h"

namespace kopt::harness {

gpu_context open_gpu_context() {
  std::string problem;
  gpu_context gpu;
  gpu.api = cuda::load_driver_api(&problem);
  if (gpu.api == nullptr) throw error(problem);
  const cuda::driver_api& api = *gpu.api;
  if (const CUresult rc = api.init(0); rc != CUDA_SUCCESS) {
    throw error(fmt::format("no usable GPU: cuInit: {} (kopt bench needs an NVIDIA GPU)", api.describe(rc)));
  }
  api.device_get(&gpu.device, 0);
  CUcontext context = nullptr;
  if (const CUresult rc = api.primary_ctx_retain(&context, gpu.device); rc != CUDA_SUCCESS) {
    throw error(fmt::format("cannot use the GPU: {}", api.describe(rc)));
  }
  api.ctx_set_current(context);
  api.device_get_attribute(&gpu.l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, gpu.device);
  CUuuid raw_uuid{};
  api.device_get_uuid(&raw_uuid, gpu.device);
  gpu.uuid = cuda::format_uuid(raw_uuid);
  return gpu;
}

void synchronize(const cuda::driver_api& api, const char* what) {
  if (const CUresult rc = api.ctx_synchronize(); rc != CUDA_SUCCESS) {
    throw error(fmt::format("{} failed: {}", what, api.describe(rc)));
  }
}

double device_peak_dram_bandwidth(const gpu_context& gpu) {
  int memory_clock_khz = 0;
  int bus_width_bits = 0;
  gpu.api->device_get_attribute(&memory_clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, gpu.device);
  gpu.api->device_get_attribute(&bus_width_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, gpu.device);
  return peak_dram_bandwidth(memory_clock_khz, bus_width_bits);
}

}  // namespace kopt::harness
