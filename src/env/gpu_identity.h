#pragma once
// Which of a host's GPUs may share one verdict. A loop measuring candidates on several GPUs at
// once compares times taken on different GPUs, so only GPUs that time a kernel alike may serve
// one comparison; the others are refused with the fact that differs. The rules are pure
// functions over the probe, so they are tested without a GPU; gpu_state_now is the one live
// read, for a comparison's record to name its GPU at its start and its end.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe.hpp>

#include "core/json.h"
#include "env/gpu_probe.h"

namespace kopt::env {

// Each fact of `gpu` that differs from `reference`, "max SM clock 1755 MHz against 1980 MHz",
// in this order: name, compute capability, SM count, memory, max SM clock, max memory clock,
// ECC mode, MIG mode, power limit, driver version. A fact NVML told on one GPU and not on the
// other differs ("unknown"); unknown on both agrees. The driver versions are arguments because
// a probe has one for all its GPUs: they differ only between probes (another host, a driver
// updated between two runs).
std::vector<std::string> gpu_differences(const gpu_device& gpu, const std::string& gpu_driver_version,
                                         const gpu_device& reference,
                                         const std::string& reference_driver_version);

struct gpu_refusal {
  int ordinal = 0;
  std::string reason;  // one line: "GPU 3 (NVIDIA H100 80GB HBM3) differs from GPU 0: ..."
};

struct gpu_group {
  std::vector<int> ordinals;         // the GPUs that may share one verdict, in the requested order
  std::vector<gpu_refusal> refused;  // the others, in the requested order
};

// The largest group of identical GPUs among `requested`; between groups of one size, the one
// holding the lowest requested ordinal. Each other GPU is refused, compared with the group's
// lowest ordinal. Throws kopt::error for an ordinal the probe does not see or one named twice.
gpu_group identical_gpu_group(const gpu_probe_result& probe, const std::vector<int>& requested);

// `group` less the GPUs that other programs compute on: their times would be slower and noisier
// than the others', so their verdicts could not be mixed. `other_compute_processes`: per
// ordinal, the compute processes that are not this kopt run's own. An ordinal it does not list
// is one NVML cannot tell about and stays: refusing those would refuse every GPU of a host
// without NVML.
gpu_group without_busy_gpus(const gpu_probe_result& probe, gpu_group group,
                            const std::map<int, int>& other_compute_processes);

// Per ordinal of `ordinals`, the compute processes NVML lists on it now (this process's own
// included, when it holds a context there); an ordinal NVML cannot tell about is left out. What
// without_busy_gpus takes, read before the caller puts anything on the GPUs.
std::map<int, int> compute_process_counts(const gpu_probe_result& probe, const std::vector<int>& ordinals);

// What a GPU was doing at one moment; each NVML fact nullopt where it cannot tell.
struct gpu_state {
  int ordinal = 0;
  std::string uuid;
  std::optional<int> sm_clock_now_mhz;             // [MHz]
  std::optional<int> temperature_c;                // [°C]
  std::optional<std::string> clock_event_reasons;  // "sw_power_cap,...", "" when none is active
  std::string taken_at;                            // UTC, ISO 8601
};
BOOST_DESCRIBE_STRUCT(gpu_state, (),
                      (ordinal, uuid, sm_clock_now_mhz, temperature_c, clock_event_reasons, taken_at))

// Read from NVML now.
gpu_state gpu_state_now(const gpu_device& device);
json to_json(const gpu_state& state);

// The value of --gpus: every visible GPU, or these ordinals as written.
struct gpu_selection {
  bool all = false;
  std::vector<int> ordinals;
};

// "all" or a comma list of ordinals ("0,2,3"); throws kopt::error naming the bad part.
gpu_selection parse_gpu_selection(std::string_view text);

// The ordinals `selection` names on this host. Throws kopt::error for an ordinal the probe does
// not see (naming the visible ones), one named twice, or no GPU at all.
std::vector<int> resolve_gpu_selection(const gpu_selection& selection, const gpu_probe_result& probe);

}  // namespace kopt::env
