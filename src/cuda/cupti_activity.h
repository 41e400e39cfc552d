#pragma once
// GPU work as the device timestamped it: CUPTI's activity records of kernels, memory copies
// and memsets, with start and end in nanoseconds of the GPU's clock. libcupti is loaded at
// run time; only one recorder exists per process (CUPTI's callbacks are process-wide).
// Never start it in profile mode: ncu owns the profiling interface then.

#include <cstdint>
#include <string>
#include <vector>

namespace kopt::cuda {

struct gpu_activity {
  enum class kind { kernel, memcpy, memset };
  kind what = kind::kernel;
  std::string name;          // kernel name (mangled as the driver reports it); "" otherwise
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint32_t stream = 0;
  std::uint32_t correlation = 0;  // CUPTI's id of the host API call that issued the work
  std::uint64_t bytes = 0;         // [bytes] copied or set; 0 for kernels
  bool crosses_host = false;       // a copy between host and device memory

  std::uint64_t duration_ns() const { return end_ns - start_ns; }
};

class activity_recorder {
 public:
  // Loads CUPTI and enables kernel, memcpy and memset records. nullptr when CUPTI cannot be
  // loaded or enabled; `problem` then says why.
  static activity_recorder* start(std::string* problem);

  // Flushes CUPTI's buffers and returns every record completed since the last call, in
  // start order. Call after synchronizing the device.
  std::vector<gpu_activity> collect();

  // Records CUPTI dropped for lack of buffer space (a measurement that lost work).
  std::uint64_t dropped_records() const;

 private:
  activity_recorder() = default;
};

}  // namespace kopt::cuda
