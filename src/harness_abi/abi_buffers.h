#pragma once
// How the runner learns where kopt's buffers are: [{"name", "address", "bytes"}] in the plan's
// order, for tensors made over them (nothing copied; kopt keeps ownership).

#include "core/json_io.h"
#include "harness/device_buffers.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness_abi {

json buffers_json(const kernel::kernel_plan& plan, const harness::device_buffers& buffers);

}  // namespace kopt::harness_abi
