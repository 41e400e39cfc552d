#include "harness/outputs_settled.h"

#include <fmt/format.h>

namespace kopt::harness {

using kernel::buffer_role;

void set_outputs_aside(const kernel::kernel_plan& plan, const device_buffers& buffers, device_buffers& aside) {
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == buffer_role::in) continue;
    buffers.memory().copy(aside.data(i), buffers.data(i), static_cast<std::size_t>(b.bytes),
                          fmt::format("setting output {} aside", b.param.name));
  }
}

std::optional<std::string> outputs_changed_since_set_aside(const kernel::kernel_plan& plan,
                                                           const device_buffers& buffers,
                                                           const device_buffers& aside) {
  buffers.memory().synchronize("reading the outputs");
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == buffer_role::in) continue;
    if (!buffers.memory().same_bytes(buffers.data(i), aside.data(i), static_cast<std::size_t>(b.bytes),
                                     fmt::format("comparing output {} with its copy", b.param.name))) {
      return fmt::format("output {} changed after the call returned and kopt had synchronised: work still in flight "
                         "was writing it while kopt read it",
                         b.param.name);
    }
  }
  return std::nullopt;
}

}  // namespace kopt::harness
