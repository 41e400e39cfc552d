#pragma once
// One callable version under the harness, bound to a set of guarded buffers of its own: the
// kernel or a native reference (solve() loaded from the built library), or a Triton module
// (through the Python runner's callback).

#include <memory>
#include <string>

#include "harness/device_buffers.h"
#include "harness/version_under_test.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct bench_version {
  std::unique_ptr<version_under_test> call;
  std::unique_ptr<device_buffers> buffers;
};

// solve() of `library` ("kernel" or "reference" says which, for messages). Throws kopt::error
// when the library cannot be loaded or exports no solve().
void* load_solve(const std::string& library, const char* what);

// `solve` bound to fresh buffers of `plan` in `memory` and to its scalars.
bench_version bind_version(buffer_memory& memory, void* solve, const kernel::kernel_plan& plan);

// One call, then a wait for its work; a device error throws kernel_failure ("crashed").
void run_once(bench_version& version, const char* who);

}  // namespace kopt::harness
