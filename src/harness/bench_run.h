#pragma once
// The measuring child's work for one `kopt bench`: validate the kernel against its reference
// on several seeds, time kernel and reference with the same engine, re-validate on fresh
// inputs, and return the result document. Runs inside `kopt harness`, never in kopt itself:
// a kernel that faults or hangs takes this process down, not kopt.

#include "core/json_io.h"
#include "harness/bench_job.h"

namespace kopt::harness {

// Environment and usage problems throw kopt::error; failures of the kernel (wrong results,
// a device fault) are part of the returned result ("status": "failed" / "crashed").
json run_bench_job(const bench_job& job);

}  // namespace kopt::harness
