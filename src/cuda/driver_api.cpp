#include "cuda/driver_api.h"

#include <dlfcn.h>

#include <type_traits>

#include <fmt/format.h>

namespace kopt::cuda {

std::string driver_api::describe(CUresult rc) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (get_error_name != nullptr) get_error_name(rc, &name);
  if (get_error_string != nullptr) get_error_string(rc, &text);
  if (name != nullptr && text != nullptr) return fmt::format("{}: {}", name, text);
  return fmt::format("CUresult {}", static_cast<int>(rc));
}

std::string format_uuid(const CUuuid& uuid) {
  std::string hex;
  for (const char byte : uuid.bytes) hex += fmt::format("{:02x}", static_cast<unsigned char>(byte));
  return fmt::format("GPU-{}-{}-{}-{}-{}", hex.substr(0, 8), hex.substr(8, 4), hex.substr(12, 4), hex.substr(16, 4),
                     hex.substr(20));
}

namespace {

struct loaded_driver {
  driver_api api;
  std::string problem;
  bool ok = false;
};

loaded_driver load() {
  loaded_driver loaded;
  void* handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    loaded.problem = "no NVIDIA driver: libcuda.so.1 could not be loaded";
    return loaded;
  }
  std::string missing;
  const auto bind = [&](auto& fn, const char* symbol) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handle, symbol));
    if (fn == nullptr && missing.empty()) missing = symbol;
  };
  driver_api& a = loaded.api;
  // Versioned names: the unversioned macros in cuda.h map to these.
  bind(a.init, "cuInit");
  bind(a.driver_get_version, "cuDriverGetVersion");
  bind(a.device_get_count, "cuDeviceGetCount");
  bind(a.device_get, "cuDeviceGet");
  bind(a.device_get_name, "cuDeviceGetName");
  bind(a.device_get_attribute, "cuDeviceGetAttribute");
  bind(a.device_total_mem, "cuDeviceTotalMem_v2");
  bind(a.device_get_uuid, "cuDeviceGetUuid_v2");
  bind(a.primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  bind(a.ctx_set_current, "cuCtxSetCurrent");
  bind(a.ctx_get_current, "cuCtxGetCurrent");
  bind(a.ctx_get_device, "cuCtxGetDevice");
  bind(a.ctx_synchronize, "cuCtxSynchronize");
  bind(a.ctx_get_limit, "cuCtxGetLimit");
  bind(a.ctx_set_limit, "cuCtxSetLimit");
  bind(a.ctx_reset_persisting_l2_cache, "cuCtxResetPersistingL2Cache");
  bind(a.mem_alloc, "cuMemAlloc_v2");
  bind(a.mem_free, "cuMemFree_v2");
  bind(a.mem_alloc_host, "cuMemAllocHost_v2");
  bind(a.mem_free_host, "cuMemFreeHost");
  bind(a.memcpy_htod, "cuMemcpyHtoD_v2");
  bind(a.memcpy_dtoh, "cuMemcpyDtoH_v2");
  bind(a.memcpy_dtod, "cuMemcpyDtoD_v2");
  bind(a.memset_d8, "cuMemsetD8_v2");
  bind(a.memset_d16, "cuMemsetD16_v2");
  bind(a.memset_d32, "cuMemsetD32_v2");
  bind(a.module_load_data, "cuModuleLoadData");
  bind(a.module_get_function, "cuModuleGetFunction");
  bind(a.launch_kernel, "cuLaunchKernel");
  bind(a.get_error_string, "cuGetErrorString");
  bind(a.get_error_name, "cuGetErrorName");
  bind(a.profiler_start, "cuProfilerStart");
  bind(a.profiler_stop, "cuProfilerStop");
  if (!missing.empty()) {
    loaded.problem = fmt::format("the NVIDIA driver is too old: libcuda.so.1 lacks {}", missing);
    return loaded;
  }
  loaded.ok = true;
  return loaded;
}

}  // namespace

const driver_api* load_driver_api(std::string* problem) {
  static const loaded_driver loaded = load();
  if (!loaded.ok) {
    if (problem != nullptr) *problem = loaded.problem;
    return nullptr;
  }
  return &loaded.api;
}

}  // namespace kopt::cuda
