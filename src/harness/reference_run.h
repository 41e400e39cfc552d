#pragma once
// The reference's measuring child for one `kopt bench`: in a process of its own, started by
// the parent with a clean environment after the kernel's child has ended, it makes again the
// inputs of every key the kernel's child kept (validation seeds on the host, checked timed
// calls on the device from (seed, call)), runs the reference on each, leaves the outputs in
// the parent's evidence folder, and times the reference with the same engine and protocol.
// A native .cu reference runs here; a .py reference runs in kopt's Python runner, started
// from here with the inputs as files.

#include "harness/child_report.h"
#include "harness/bench_job.h"

namespace kopt::harness {

// Environment problems, and a Python reference at fault, throw kopt::error; a native
// reference that faults on the device is a result with status "crashed".
child_report run_reference_job(const bench_job& job);

}  // namespace kopt::harness
