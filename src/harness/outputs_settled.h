#pragma once
// Proof that a call's outputs were final when kopt read them (EXPLOITS.md #24). A version can
// return while work it started (in another CUDA context, another process) is still writing
// its outputs: kopt's synchronisation does not wait for it, and the outputs read for the
// verdict would be whatever was there at that moment. So every call whose outputs are read (the
// validation seeds, the timed calls checked at random) has them copied aside right after it
// returned and kopt synchronised, read, and then compared with that copy once kopt has
// synchronised again: a byte that changed in between was written by work still in flight.
// Both steps stay in the memory that holds the buffers (a device copy and kopt's comparison
// kernel; nothing crosses to the host).

#include <optional>
#include <string>

#include "harness/device_buffers.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

// Enqueues a copy of every `out` and `inout` buffer of `buffers` into the same buffer of
// `aside` (a set of the same plan in the same memory whose outputs are free: the pristine set).
void set_outputs_aside(const kernel::kernel_plan& plan, const device_buffers& buffers, device_buffers& aside);

// After the outputs were read: synchronises kopt's work and compares every output with the
// copy set aside. "output y changed after ..." for the first that differs, or nothing.
std::optional<std::string> outputs_changed_since_set_aside(const kernel::kernel_plan& plan,
                                                           const device_buffers& buffers,
                                                           const device_buffers& aside);

}  // namespace kopt::harness
