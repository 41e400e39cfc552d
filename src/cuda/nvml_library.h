#pragma once
// NVML, loaded at run time: the driver version, SM clocks and clock-event (throttle)
// reasons of a device, and the state that decides whether two GPUs time alike. Absent NVML
// yields empty answers, never an error.

#include <optional>
#include <string>
#include <vector>

namespace kopt::cuda {

struct sm_clocks {
  int sm_now_mhz = 0;          // [MHz]
  int sm_max_mhz = 0;          // [MHz]
  std::string event_reasons;   // "sw_power_cap,hw_thermal_slowdown", "" when none
  bool throttled = false;      // a reason other than idle or application settings is active
};

// NVML_ERROR_NOT_SUPPORTED is an answer of its own: a GPU without MIG cannot be partitioned.
enum class mig_mode { disabled, enabled, not_supported };

// "disabled", "enabled", "not_supported".
const char* to_string(mig_mode mode);

// Each fact is nullopt where NVML cannot tell (no such query in this driver, not supported,
// no permission).
struct device_state {
  std::optional<int> sm_now_mhz;                       // [MHz]
  std::optional<int> sm_max_mhz;                       // [MHz]
  std::optional<int> memory_max_mhz;                   // [MHz]
  std::optional<int> temperature_c;                    // [°C] the GPU die's sensor
  std::optional<unsigned long long> clock_event_mask;  // NVML's reason bits, see describe_clock_event_reasons
  std::optional<bool> ecc_enabled;                     // current mode, not the pending one
  std::optional<mig_mode> mig;                         // current mode, not the pending one
  std::optional<int> power_limit_mw;                   // [mW] the enforced limit
};

class nvml_library {
 public:
  static const nvml_library& instance();

  bool available() const { return m_available; }
  std::string driver_version() const;
  // `uuid` as the CUDA driver reports it ("GPU-...").
  // Cheap enough to read between samples (about 1 ms on an H200).
  std::optional<sm_clocks> clocks(const std::string& uuid) const;
  // Every fact of device_state, one NVML query each; nullopt when NVML or the device is absent.
  std::optional<device_state> state(const std::string& uuid) const;
  // Process ids of the compute processes on the device (the caller's own included when it
  // holds a context); nullopt when NVML cannot tell. In a container NVML may report the
  // host's process ids.
  std::optional<std::vector<unsigned>> compute_process_ids(const std::string& uuid) const;

 private:
  nvml_library();
  // nullptr when NVML or the device is absent.
  void* device_handle(const std::string& uuid) const;
  std::optional<unsigned long long> clock_event_mask(void* device) const;
  // `query`: nvmlDeviceGetClockInfo (now) or nvmlDeviceGetMaxClockInfo; `clock`: NVML's clock type.
  std::optional<int> clock_mhz(void* device, const char* query, int clock) const;

  bool m_available = false;
  void* m_handle = nullptr;
};

// Pure: names of the bits of NVML's clock-event reason mask, comma separated.
std::string describe_clock_event_reasons(unsigned long long mask);
// Pure: a reason other than idle or application settings is active.
bool clock_events_throttle(unsigned long long mask);

}  // namespace kopt::cuda
