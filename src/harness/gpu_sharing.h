#pragma once
// Whether other programs compute on the GPU while kopt times: they slow the kernel down
// unpredictably, so a result says so.

#include <cstddef>
#include <optional>
#include <string>

namespace kopt::harness {

// "2 other process(es) use this GPU while kopt times (NVML lists pids ...)", or nothing (also
// when NVML cannot tell). `device_uuid` as cuda::format_uuid writes it. `own_peers`: processes
// of this kopt run that are on the GPU but idle while this one times (a comparison in turns);
// they are not counted.
std::optional<std::string> other_processes_warning(const std::string& device_uuid, std::size_t own_peers = 0);

}  // namespace kopt::harness
