#include "env/gpu_probe.h"

#include <array>

#include <fmt/format.h>

#include "cuda/driver_api.h"
#include "cuda/nvml_library.h"

namespace kopt::env {

const gpu_device* gpu_probe_result::device(int ordinal) const {
  for (const auto& d : devices) {
    if (d.ordinal == ordinal) return &d;
  }
  return nullptr;
}

std::string format_cuda_version(int version) {
  return version <= 0 ? "" : fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

namespace {

int attribute(const cuda::driver_api& api, CUdevice_attribute which, CUdevice device) {
  int value = 0;
  return api.device_get_attribute(&value, which, device) == CUDA_SUCCESS ? value : 0;
}

void add_nvml_state(gpu_device& device, const cuda::nvml_library& nvml) {
  const auto state = nvml.state(device.uuid);
  if (!state) return;
  device.sm_clock_max_mhz = state->sm_max_mhz.value_or(0);
  device.sm_clock_now_mhz = state->sm_now_mhz.value_or(0);
  if (state->clock_event_mask)
    device.clock_event_reasons = cuda::describe_clock_event_reasons(*state->clock_event_mask);
  device.memory_clock_max_mhz = state->memory_max_mhz;
  device.temperature_c = state->temperature_c;
  device.ecc_enabled = state->ecc_enabled;
  device.mig_mode = state->mig;
  device.power_limit_mw = state->power_limit_mw;
}

}  // namespace

gpu_probe_result probe_gpus() {
  gpu_probe_result result;
  const cuda::driver_api* loaded = cuda::load_driver_api(&result.driver_problem);
  if (loaded == nullptr) return result;
  const cuda::driver_api& api = *loaded;
  result.driver_loaded = true;
  api.driver_get_version(&result.driver_cuda_version);
  if (const CUresult rc = api.init(0); rc != CUDA_SUCCESS) {
    result.driver_problem = fmt::format("the CUDA driver found no usable GPU: cuInit: {}", api.describe(rc));
    return result;
  }
  int count = 0;
  api.device_get_count(&count);
  if (count == 0) {
    result.driver_problem = "the CUDA driver sees no GPU (check CUDA_VISIBLE_DEVICES)";
    return result;
  }
  const cuda::nvml_library& nvml = cuda::nvml_library::instance();
  result.driver_version = nvml.driver_version();
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice handle = 0;
    if (api.device_get(&handle, ordinal) != CUDA_SUCCESS) continue;
    gpu_device device;
    device.ordinal = ordinal;
    std::array<char, 256> name{};
    api.device_get_name(name.data(), static_cast<int>(name.size()), handle);
    device.name = name.data();
    CUuuid uuid{};
    if (api.device_get_uuid(&uuid, handle) == CUDA_SUCCESS) device.uuid = cuda::format_uuid(uuid);
    device.capability.major = attribute(api, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle);
    device.capability.minor = attribute(api, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle);
    device.multiprocessors = attribute(api, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, handle);
    device.l2_bytes = attribute(api, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, handle);
    size_t memory = 0;
    if (api.device_total_mem(&memory, handle) == CUDA_SUCCESS) device.memory_bytes = static_cast<std::int64_t>(memory);
    add_nvml_state(device, nvml);
    result.devices.push_back(device);
  }
  return result;
}

json to_json(const gpu_device& d) {
  return json{{"ordinal", d.ordinal},
              {"name", d.name},
              {"uuid", d.uuid},
              {"compute_capability", fmt::format("{}.{}", d.capability.major, d.capability.minor)},
              {"multiprocessors", d.multiprocessors},
              {"memory_bytes", d.memory_bytes},
              {"l2_bytes", d.l2_bytes},
              {"sm_clock_max_mhz", d.sm_clock_max_mhz},
              {"sm_clock_now_mhz", d.sm_clock_now_mhz},
              {"clock_event_reasons", d.clock_event_reasons},
              {"memory_clock_max_mhz", json_or_null(d.memory_clock_max_mhz)},
              {"temperature_c", json_or_null(d.temperature_c)},
              {"ecc_enabled", json_or_null(d.ecc_enabled)},
              {"mig_mode", d.mig_mode ? json(cuda::to_string(*d.mig_mode)) : json(nullptr)},
              {"power_limit_mw", json_or_null(d.power_limit_mw)}};
}

}  // namespace kopt::env
