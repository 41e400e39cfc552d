#include "cuda/nvml_library.h"

#include <dlfcn.h>

#include <array>
#include <utility>

namespace kopt::cuda {
namespace {

// NVML's C API, declared here because the CUDA toolkit does not ship nvml.h everywhere.
using nvml_device = void*;
using nvml_return = int;
constexpr nvml_return nvml_success = 0;
constexpr nvml_return nvml_error_not_supported = 3;
constexpr int nvml_clock_sm = 1;          // NVML_CLOCK_SM
constexpr int nvml_clock_mem = 2;         // NVML_CLOCK_MEM
constexpr int nvml_temperature_gpu = 0;   // NVML_TEMPERATURE_GPU
constexpr unsigned int nvml_enabled = 1;  // NVML_FEATURE_ENABLED, NVML_DEVICE_MIG_ENABLE

using init_fn = nvml_return (*)();
using driver_version_fn = nvml_return (*)(char*, unsigned int);
using handle_by_uuid_fn = nvml_return (*)(const char*, nvml_device*);
using clock_info_fn = nvml_return (*)(nvml_device, int, unsigned int*);
using event_reasons_fn = nvml_return (*)(nvml_device, unsigned long long*);
using temperature_fn = nvml_return (*)(nvml_device, int, unsigned int*);
// nvmlEnableState_t (ECC) and MIG's modes are 32-bit; (current, pending).
using mode_pair_fn = nvml_return (*)(nvml_device, unsigned int*, unsigned int*);
using milliwatts_fn = nvml_return (*)(nvml_device, unsigned int*);
// nvmlProcessInfo_t of the _v3 query (NVML's layout, declared here: kopt does not need nvml.h).
struct nvml_process_info {
  unsigned int pid;
  unsigned long long used_gpu_memory;  // [bytes]
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};
using running_processes_fn = nvml_return (*)(nvml_device, unsigned int*, nvml_process_info*);

template <typename Fn>
Fn symbol(void* handle, const char* name) {
  return handle == nullptr ? nullptr : reinterpret_cast<Fn>(::dlsym(handle, name));
}

// The value an NVML query writes, when it answers. The query runs before the value is read: as
// two arguments of one call their order would be unspecified, and GCC read the value first.
template <typename Query>
std::optional<int> answered_value(Query query) {
  unsigned int value = 0;
  if (!query(&value)) return std::nullopt;
  return static_cast<int>(value);
}

}  // namespace

const char* to_string(mig_mode mode) {
  switch (mode) {
    case mig_mode::disabled:
      return "disabled";
    case mig_mode::enabled:
      return "enabled";
    case mig_mode::not_supported:
      return "not_supported";
  }
  return "unknown";
}

bool clock_events_throttle(unsigned long long mask) {
  return (mask & ~0x3ULL) != 0;
}

std::string describe_clock_event_reasons(unsigned long long mask) {
  static constexpr std::array<std::pair<unsigned long long, const char*>, 9> names = {{
      {0x1ULL, "gpu_idle"},
      {0x2ULL, "applications_clocks_setting"},
      {0x4ULL, "sw_power_cap"},
      {0x8ULL, "hw_slowdown"},
      {0x10ULL, "sync_boost"},
      {0x20ULL, "sw_thermal_slowdown"},
      {0x40ULL, "hw_thermal_slowdown"},
      {0x80ULL, "hw_power_brake_slowdown"},
      {0x100ULL, "display_clock_setting"},
  }};
  std::string text;
  for (const auto& [bit, name] : names) {
    if ((mask & bit) == 0) continue;
    if (!text.empty()) text += ',';
    text += name;
  }
  return text;
}

nvml_library::nvml_library() {
  m_handle = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  const auto init = symbol<init_fn>(m_handle, "nvmlInit_v2");
  m_available = init != nullptr && init() == nvml_success;
}

const nvml_library& nvml_library::instance() {
  static const nvml_library library;
  return library;
}

std::string nvml_library::driver_version() const {
  if (!m_available) return "";
  std::array<char, 96> text{};
  const auto get = symbol<driver_version_fn>(m_handle, "nvmlSystemGetDriverVersion");
  return get != nullptr && get(text.data(), static_cast<unsigned>(text.size())) == nvml_success
             ? std::string(text.data())
             : "";
}

void* nvml_library::device_handle(const std::string& uuid) const {
  if (!m_available || uuid.empty()) return nullptr;
  nvml_device device = nullptr;
  const auto by_uuid = symbol<handle_by_uuid_fn>(m_handle, "nvmlDeviceGetHandleByUUID");
  return by_uuid != nullptr && by_uuid(uuid.c_str(), &device) == nvml_success ? device : nullptr;
}

std::optional<unsigned long long> nvml_library::clock_event_mask(void* device) const {
  // Newer drivers name it "clocks event reasons"; older ones "throttle reasons".
  auto reasons = symbol<event_reasons_fn>(m_handle, "nvmlDeviceGetCurrentClocksEventReasons");
  if (reasons == nullptr)
    reasons = symbol<event_reasons_fn>(m_handle, "nvmlDeviceGetCurrentClocksThrottleReasons");
  unsigned long long mask = 0;
  if (reasons == nullptr || reasons(device, &mask) != nvml_success) return std::nullopt;
  return mask;
}

std::optional<int> nvml_library::clock_mhz(void* device, const char* query, int clock) const {
  const auto read = symbol<clock_info_fn>(m_handle, query);
  return answered_value(
      [&](unsigned int* mhz) { return read != nullptr && read(device, clock, mhz) == nvml_success; });
}

std::optional<sm_clocks> nvml_library::clocks(const std::string& uuid) const {
  nvml_device device = device_handle(uuid);
  if (device == nullptr) return std::nullopt;
  sm_clocks result;
  result.sm_now_mhz = clock_mhz(device, "nvmlDeviceGetClockInfo", nvml_clock_sm).value_or(0);
  result.sm_max_mhz = clock_mhz(device, "nvmlDeviceGetMaxClockInfo", nvml_clock_sm).value_or(0);
  if (const auto mask = clock_event_mask(device)) {
    result.event_reasons = describe_clock_event_reasons(*mask);
    result.throttled = clock_events_throttle(*mask);
  }
  return result;
}

std::optional<device_state> nvml_library::state(const std::string& uuid) const {
  nvml_device device = device_handle(uuid);
  if (device == nullptr) return std::nullopt;
  device_state state;
  unsigned int value = 0;
  unsigned int pending = 0;
  state.sm_now_mhz = clock_mhz(device, "nvmlDeviceGetClockInfo", nvml_clock_sm);
  state.sm_max_mhz = clock_mhz(device, "nvmlDeviceGetMaxClockInfo", nvml_clock_sm);
  state.memory_max_mhz = clock_mhz(device, "nvmlDeviceGetMaxClockInfo", nvml_clock_mem);
  const auto temperature = symbol<temperature_fn>(m_handle, "nvmlDeviceGetTemperature");
  state.temperature_c = answered_value([&](unsigned int* celsius) {
    return temperature != nullptr && temperature(device, nvml_temperature_gpu, celsius) == nvml_success;
  });
  state.clock_event_mask = clock_event_mask(device);
  if (const auto ecc = symbol<mode_pair_fn>(m_handle, "nvmlDeviceGetEccMode");
      ecc != nullptr && ecc(device, &value, &pending) == nvml_success) {
    state.ecc_enabled = value == nvml_enabled;
  }
  if (const auto mig = symbol<mode_pair_fn>(m_handle, "nvmlDeviceGetMigMode"); mig != nullptr) {
    const nvml_return rc = mig(device, &value, &pending);
    if (rc == nvml_success) state.mig = value == nvml_enabled ? mig_mode::enabled : mig_mode::disabled;
    if (rc == nvml_error_not_supported) state.mig = mig_mode::not_supported;
  }
  const auto power = symbol<milliwatts_fn>(m_handle, "nvmlDeviceGetEnforcedPowerLimit");
  state.power_limit_mw = answered_value([&](unsigned int* milliwatts) {
    return power != nullptr && power(device, milliwatts) == nvml_success;
  });
  return state;
}

std::optional<std::vector<unsigned>> nvml_library::compute_process_ids(const std::string& uuid) const {
  nvml_device device = device_handle(uuid);
  const auto running = symbol<running_processes_fn>(m_handle, "nvmlDeviceGetComputeRunningProcesses_v3");
  if (device == nullptr || running == nullptr) return std::nullopt;
  std::vector<nvml_process_info> infos(64);
  auto count = static_cast<unsigned int>(infos.size());
  if (running(device, &count, infos.data()) != nvml_success) return std::nullopt;
  std::vector<unsigned> pids;
  for (unsigned int i = 0; i < count && i < infos.size(); ++i) pids.push_back(infos[i].pid);
  return pids;
}

}  // namespace kopt::cuda
