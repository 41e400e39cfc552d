#pragma once
// One callable version under the harness: the kernel or a native reference, its solve()
// loaded from the built library and bound to a set of guarded buffers of its own.

#include <memory>
#include <string>

#include "cuda/driver_api.h"
#include "harness/device_buffers.h"
#include "harness/solve_call.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct bench_version {
  std::unique_ptr<solve_call> call;
  std::unique_ptr<device_buffers> buffers;
};

// solve() of `library` ("kernel" or "reference" says which, for messages). Throws kopt::error
// when the library cannot be loaded or exports no solve().
void* load_solve(const std::string& library, const char* what);

// `solve` bound to fresh buffers of `plan` and to its scalars.
bench_version bind_version(const cuda::driver_api& api, void* solve, const kernel::kernel_plan& plan);

// One call, then a device synchronisation; a device error throws kernel_failure ("crashed").
void run_once(const cuda::driver_api& api, bench_version& version, const char* who);

}  // namespace kopt::harness
