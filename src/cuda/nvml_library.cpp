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
constexpr int nvml_clock_sm = 1;

using init_fn = nvml_return (*)();
using driver_version_fn = nvml_return (*)(char*, unsigned int);
using handle_by_uuid_fn = nvml_return (*)(const char*, nvml_device*);
using clock_info_fn = nvml_return (*)(nvml_device, int, unsigned int*);
using event_reasons_fn = nvml_return (*)(nvml_device, unsigned long long*);
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

}  // namespace

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

std::optional<sm_clocks> nvml_library::clocks(const std::string& uuid) const {
  if (!m_available || uuid.empty()) return std::nullopt;
  nvml_device device = nullptr;
  const auto by_uuid = symbol<handle_by_uuid_fn>(m_handle, "nvmlDeviceGetHandleByUUID");
  if (by_uuid == nullptr || by_uuid(uuid.c_str(), &device) != nvml_success) return std::nullopt;
  sm_clocks result;
  unsigned int mhz = 0;
  if (const auto now = symbol<clock_info_fn>(m_handle, "nvmlDeviceGetClockInfo");
      now != nullptr && now(device, nvml_clock_sm, &mhz) == nvml_success) {
    result.sm_now_mhz = static_cast<int>(mhz);
  }
  if (const auto max = symbol<clock_info_fn>(m_handle, "nvmlDeviceGetMaxClockInfo");
      max != nullptr && max(device, nvml_clock_sm, &mhz) == nvml_success) {
    result.sm_max_mhz = static_cast<int>(mhz);
  }
  // Newer drivers name it "clocks event reasons"; older ones "throttle reasons".
  auto reasons = symbol<event_reasons_fn>(m_handle, "nvmlDeviceGetCurrentClocksEventReasons");
  if (reasons == nullptr) reasons = symbol<event_reasons_fn>(m_handle, "nvmlDeviceGetCurrentClocksThrottleReasons");
  unsigned long long mask = 0;
  if (reasons != nullptr && reasons(device, &mask) == nvml_success) {
    result.event_reasons = describe_clock_event_reasons(mask);
    result.throttled = (mask & ~0x3ULL) != 0;
  }
  return result;
}

std::optional<std::vector<unsigned>> nvml_library::compute_process_ids(const std::string& uuid) const {
  if (!m_available || uuid.empty()) return std::nullopt;
  nvml_device device = nullptr;
  const auto by_uuid = symbol<handle_by_uuid_fn>(m_handle, "nvmlDeviceGetHandleByUUID");
  const auto running = symbol<running_processes_fn>(m_handle, "nvmlDeviceGetComputeRunningProcesses_v3");
  if (by_uuid == nullptr || running == nullptr || by_uuid(uuid.c_str(), &device) != nvml_success) return std::nullopt;
  std::vector<nvml_process_info> infos(64);
  auto count = static_cast<unsigned int>(infos.size());
  if (running(device, &count, infos.data()) != nvml_success) return std::nullopt;
  std::vector<unsigned> pids;
  for (unsigned int i = 0; i < count && i < infos.size(); ++i) pids.push_back(infos[i].pid);
  return pids;
}

}  // namespace kopt::cuda
