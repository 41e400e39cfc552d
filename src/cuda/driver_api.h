#pragma once
// The CUDA driver API, loaded at run time from libcuda.so.1, so that kopt starts (and says
// clearly what is missing) on a machine without a driver. One table of entry points,
// resolved once; users call through it.

#include <cuda.h>
#include <cudaProfiler.h>

#include <string>

namespace kopt::cuda {

struct driver_api {
  decltype(&cuInit) init = nullptr;
  decltype(&cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&cuDeviceGetCount) device_get_count = nullptr;
  decltype(&cuDeviceGet) device_get = nullptr;
  decltype(&cuDeviceGetName) device_get_name = nullptr;
  decltype(&cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&cuDeviceTotalMem) device_total_mem = nullptr;
  decltype(&cuDeviceGetUuid) device_get_uuid = nullptr;
  decltype(&cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&cuCtxGetCurrent) ctx_get_current = nullptr;
  decltype(&cuCtxGetDevice) ctx_get_device = nullptr;
  decltype(&cuCtxSynchronize) ctx_synchronize = nullptr;
  decltype(&cuCtxGetLimit) ctx_get_limit = nullptr;
  decltype(&cuCtxSetLimit) ctx_set_limit = nullptr;
  decltype(&cuCtxResetPersistingL2Cache) ctx_reset_persisting_l2_cache = nullptr;
  decltype(&cuMemAlloc) mem_alloc = nullptr;
  decltype(&cuMemFree) mem_free = nullptr;
  decltype(&cuMemAllocHost) mem_alloc_host = nullptr;
  decltype(&cuMemFreeHost) mem_free_host = nullptr;
  decltype(&cuMemcpyHtoD) memcpy_htod = nullptr;
  decltype(&cuMemcpyDtoH) memcpy_dtoh = nullptr;
  decltype(&cuMemcpyDtoD) memcpy_dtod = nullptr;
  decltype(&cuMemsetD8) memset_d8 = nullptr;
  decltype(&cuMemsetD16) memset_d16 = nullptr;
  decltype(&cuMemsetD32) memset_d32 = nullptr;
  decltype(&cuModuleLoadData) module_load_data = nullptr;
  decltype(&cuModuleGetFunction) module_get_function = nullptr;
  decltype(&cuLaunchKernel) launch_kernel = nullptr;
  decltype(&cuGetErrorString) get_error_string = nullptr;
  decltype(&cuGetErrorName) get_error_name = nullptr;
  decltype(&cuProfilerStart) profiler_start = nullptr;
  decltype(&cuProfilerStop) profiler_stop = nullptr;

  // "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"
  std::string describe(CUresult rc) const;
};

// NVML's spelling of a device UUID: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
std::string format_uuid(const CUuuid& uuid);

// The loaded table, or nullptr when libcuda.so.1 (or one of its symbols) is missing;
// `problem` then says why.
const driver_api* load_driver_api(std::string* problem = nullptr);

}  // namespace kopt::cuda
