#include "env/gpu_identity.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/document.h"
#include "core/error.h"
#include "core/text.h"
#include "core/utc_time.h"

namespace kopt::env {
namespace {

constexpr std::string_view gpus_remedy = R"(write "all" or a comma list of GPU ordinals such as "0,2,3")";

std::string mhz_text(int mhz) {
  return mhz > 0 ? fmt::format("{} MHz", mhz) : "unknown";
}

std::string optional_mhz_text(const std::optional<int>& mhz) {
  return mhz ? mhz_text(*mhz) : "unknown";
}

std::string power_limit_text(const std::optional<int>& milliwatts) {
  return milliwatts ? fmt::format("{:g} W", *milliwatts / 1000.0) : "unknown";
}

std::string ecc_text(const std::optional<bool>& enabled) {
  return enabled ? (*enabled ? "enabled" : "disabled") : "unknown";
}

std::string mig_text(const std::optional<cuda::mig_mode>& mode) {
  if (!mode) return "unknown";
  return *mode == cuda::mig_mode::not_supported ? "not supported" : cuda::to_string(*mode);
}

// Two sizes that round to the same text are written to the byte, so the reason shows the difference.
std::pair<std::string, std::string> memory_texts(std::int64_t gpu, std::int64_t reference) {
  std::string a = format_bytes(static_cast<double>(gpu));
  std::string b = format_bytes(static_cast<double>(reference));
  if (a != b) return {a, b};
  return {format_thousands(gpu) + " bytes", format_thousands(reference) + " bytes"};
}

void add_difference(std::vector<std::string>& out, std::string_view fact, const std::string& gpu,
                    const std::string& reference) {
  out.push_back(fmt::format("{} {} against {}", fact, gpu, reference));
}

std::string describe(const gpu_device& device) {
  return fmt::format("GPU {} ({})", device.ordinal, device.name);
}

std::string visible_ordinals(const gpu_probe_result& probe) {
  std::vector<std::string> ordinals;
  for (const auto& device : probe.devices) ordinals.push_back(std::to_string(device.ordinal));
  return join(ordinals, ", ");
}

// The devices `requested` names, in its order; the one place that refuses an unseen ordinal
// and a repeated one.
std::vector<const gpu_device*> requested_devices(const gpu_probe_result& probe,
                                                 const std::vector<int>& requested) {
  if (!probe.has_gpu()) {
    throw error(fmt::format("--gpus: no GPU is visible: {}", probe.driver_problem.empty()
                                                                 ? "the CUDA driver lists none"
                                                                 : probe.driver_problem));
  }
  std::vector<const gpu_device*> devices;
  std::set<int> seen;
  for (const int ordinal : requested) {
    const gpu_device* device = probe.device(ordinal);
    if (device == nullptr) {
      throw error(
          fmt::format("--gpus: GPU {} is not visible; the visible GPUs are {} (numbered after "
                      "CUDA_VISIBLE_DEVICES)",
                      ordinal, visible_ordinals(probe)));
    }
    if (!seen.insert(ordinal).second)
      throw error(fmt::format("--gpus: GPU {} is named twice; name each GPU once", ordinal));
    devices.push_back(device);
  }
  return devices;
}

int lowest_ordinal(const std::vector<const gpu_device*>& devices) {
  int lowest = devices.front()->ordinal;
  for (const auto* device : devices) lowest = std::min(lowest, device->ordinal);
  return lowest;
}

}  // namespace

std::vector<std::string> gpu_differences(const gpu_device& gpu, const std::string& gpu_driver_version,
                                         const gpu_device& reference,
                                         const std::string& reference_driver_version) {
  std::vector<std::string> out;
  if (gpu.name != reference.name) add_difference(out, "name", gpu.name, reference.name);
  if (gpu.capability.major != reference.capability.major ||
      gpu.capability.minor != reference.capability.minor) {
    add_difference(out, "compute capability",
                   fmt::format("{}.{}", gpu.capability.major, gpu.capability.minor),
                   fmt::format("{}.{}", reference.capability.major, reference.capability.minor));
  }
  if (gpu.multiprocessors != reference.multiprocessors) {
    add_difference(out, "SM count", std::to_string(gpu.multiprocessors),
                   std::to_string(reference.multiprocessors));
  }
  if (gpu.memory_bytes != reference.memory_bytes) {
    const auto [a, b] = memory_texts(gpu.memory_bytes, reference.memory_bytes);
    add_difference(out, "memory", a, b);
  }
  // 0: NVML could not tell (gpu_device's older fields keep 0 for unknown).
  if (gpu.sm_clock_max_mhz != reference.sm_clock_max_mhz) {
    add_difference(out, "max SM clock", mhz_text(gpu.sm_clock_max_mhz), mhz_text(reference.sm_clock_max_mhz));
  }
  if (gpu.memory_clock_max_mhz != reference.memory_clock_max_mhz) {
    add_difference(out, "max memory clock", optional_mhz_text(gpu.memory_clock_max_mhz),
                   optional_mhz_text(reference.memory_clock_max_mhz));
  }
  if (gpu.ecc_enabled != reference.ecc_enabled) {
    add_difference(out, "ECC mode", ecc_text(gpu.ecc_enabled), ecc_text(reference.ecc_enabled));
  }
  if (gpu.mig_mode != reference.mig_mode) {
    add_difference(out, "MIG mode", mig_text(gpu.mig_mode), mig_text(reference.mig_mode));
  }
  if (gpu.power_limit_mw != reference.power_limit_mw) {
    add_difference(out, "power limit", power_limit_text(gpu.power_limit_mw),
                   power_limit_text(reference.power_limit_mw));
  }
  if (gpu_driver_version != reference_driver_version) {
    const auto text = [](const std::string& v) { return v.empty() ? std::string("unknown") : v; };
    add_difference(out, "driver version", text(gpu_driver_version), text(reference_driver_version));
  }
  return out;
}

gpu_group identical_gpu_group(const gpu_probe_result& probe, const std::vector<int>& requested) {
  const std::vector<const gpu_device*> devices = requested_devices(probe, requested);
  // Identity is equality of every fact, so comparing with a class's first member is enough.
  std::vector<std::vector<const gpu_device*>> classes;
  for (const gpu_device* device : devices) {
    const auto same = std::find_if(classes.begin(), classes.end(), [&](const auto& members) {
      return gpu_differences(*device, probe.driver_version, *members.front(), probe.driver_version).empty();
    });
    if (same == classes.end()) {
      classes.push_back({device});
    } else {
      same->push_back(device);
    }
  }
  gpu_group group;
  if (classes.empty()) return group;
  const auto chosen = std::min_element(classes.begin(), classes.end(), [](const auto& a, const auto& b) {
    if (a.size() != b.size()) return a.size() > b.size();
    return lowest_ordinal(a) < lowest_ordinal(b);
  });
  const gpu_device& reference = *probe.device(lowest_ordinal(*chosen));
  for (const gpu_device* device : devices) {
    const auto differences = gpu_differences(*device, probe.driver_version, reference, probe.driver_version);
    if (differences.empty()) {
      group.ordinals.push_back(device->ordinal);
    } else {
      group.refused.push_back({device->ordinal, fmt::format("{} differs from GPU {}: {}", describe(*device),
                                                            reference.ordinal, join(differences, "; "))});
    }
  }
  return group;
}

gpu_group without_busy_gpus(const gpu_probe_result& probe, gpu_group group,
                            const std::map<int, int>& other_compute_processes) {
  gpu_group kept;
  kept.refused = std::move(group.refused);
  for (const int ordinal : group.ordinals) {
    const auto count = other_compute_processes.find(ordinal);
    if (count == other_compute_processes.end() || count->second <= 0) {
      kept.ordinals.push_back(ordinal);
      continue;
    }
    const gpu_device* device = probe.device(ordinal);
    kept.refused.push_back(
        {ordinal,
         fmt::format("{} is busy: {} other compute process{} run{} on it, so its times would be slower "
                     "and noisier than the other GPUs'",
                     device != nullptr ? describe(*device) : fmt::format("GPU {}", ordinal), count->second,
                     count->second == 1 ? "" : "es", count->second == 1 ? "s" : "")});
  }
  return kept;
}

gpu_state gpu_state_now(const gpu_device& device) {
  gpu_state state;
  state.ordinal = device.ordinal;
  state.uuid = device.uuid;
  if (const auto live = cuda::nvml_library::instance().state(device.uuid)) {
    state.sm_clock_now_mhz = live->sm_now_mhz;
    state.temperature_c = live->temperature_c;
    if (live->clock_event_mask)
      state.clock_event_reasons = cuda::describe_clock_event_reasons(*live->clock_event_mask);
  }
  state.taken_at = utc_timestamp();
  return state;
}

std::map<int, int> compute_process_counts(const gpu_probe_result& probe, const std::vector<int>& ordinals) {
  std::map<int, int> counts;
  for (const int ordinal : ordinals) {
    const gpu_device* device = probe.device(ordinal);
    if (device == nullptr) continue;
    if (const auto pids = cuda::nvml_library::instance().compute_process_ids(device->uuid)) {
      counts[ordinal] = static_cast<int>(pids->size());
    }
  }
  return counts;
}

json to_json(const gpu_state& state) {
  return to_document(state);
}

gpu_selection parse_gpu_selection(std::string_view text) {
  const std::string_view value = trim(text);
  if (to_lower(value) == "all") return gpu_selection{true, {}};
  if (value.empty()) throw error(fmt::format("--gpus is empty; {}", gpus_remedy));
  gpu_selection selection;
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = std::min(value.find(',', start), value.size());
    const std::string_view part = trim(value.substr(start, comma - start));
    int ordinal = -1;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), ordinal);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || ordinal < 0) {
      throw error(fmt::format("--gpus \"{}\": {} is not a GPU ordinal; {}", text,
                              part.empty() ? "an empty entry" : fmt::format("\"{}\"", part), gpus_remedy));
    }
    selection.ordinals.push_back(ordinal);
    start = comma + 1;
  }
  return selection;
}

std::vector<int> resolve_gpu_selection(const gpu_selection& selection, const gpu_probe_result& probe) {
  std::vector<int> ordinals = selection.ordinals;
  if (selection.all) {
    ordinals.clear();
    for (const auto& device : probe.devices) ordinals.push_back(device.ordinal);
  }
  requested_devices(probe, ordinals);  // throws for what cannot be used
  return ordinals;
}

}  // namespace kopt::env
