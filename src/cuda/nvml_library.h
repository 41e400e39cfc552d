#pragma once
// NVML, loaded at run time: the driver version, SM clocks and clock-event (throttle)
// reasons of a device. Absent NVML yields empty answers, never an error.

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

class nvml_library {
 public:
  static const nvml_library& instance();

  bool available() const { return m_available; }
  std::string driver_version() const;
  // `uuid` as the CUDA driver reports it ("GPU-...").
  std::optional<sm_clocks> clocks(const std::string& uuid) const;
  // Process ids of the compute processes on the device (the caller's own included when it
  // holds a context); nullopt when NVML cannot tell. In a container NVML may report the
  // host's process ids.
  std::optional<std::vector<unsigned>> compute_process_ids(const std::string& uuid) const;

 private:
  nvml_library();
  bool m_available = false;
  void* m_handle = nullptr;
};

// Pure: names of the bits of NVML's clock-event reason mask, comma separated.
std::string describe_clock_event_reasons(unsigned long long mask);

}  // namespace kopt::cuda
