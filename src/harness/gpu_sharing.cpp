#include "harness/gpu_sharing.h"

#include <unistd.h>

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cuda/nvml_library.h"

namespace kopt::harness {

// NVML lists this process too (under the host's pid when in a container, so it may not be
// recognisable: then one listed pid is taken to be this one).
std::optional<std::string> other_processes_warning(const std::string& device_uuid, std::size_t own_peers) {
  const auto pids = cuda::nvml_library::instance().compute_process_ids(device_uuid);
  if (!pids) return std::nullopt;
  const auto self = static_cast<unsigned>(::getpid());
  const bool self_listed = std::find(pids->begin(), pids->end(), self) != pids->end();
  const std::size_t others = static_cast<std::size_t>(std::count_if(pids->begin(), pids->end(),
                                                                    [&](unsigned pid) { return pid != self; }));
  std::size_t count = self_listed ? others : (others == 0 ? 0 : others - 1);
  count = count > own_peers ? count - own_peers : 0;
  if (count == 0) return std::nullopt;
  return fmt::format("{} other process(es) use this GPU while kopt times (NVML lists pids {}): the times may be "
                     "slower and noisier than on an idle GPU",
                     count, fmt::join(*pids, ", "));
}

}  // namespace kopt::harness
