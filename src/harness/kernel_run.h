#pragma once
// The kernel's measuring child for one `kopt bench`: run the kernel on the validation seeds,
// time it (every timed call on fresh inputs, some checked at random), run it on fresh inputs
// once more, and leave its outputs for each of those inputs in the parent's evidence folder.
// No reference is loaded here: the reference runs in a process of its own, and the parent
// compares the two sides' outputs. Runs inside `kopt harness`, never in kopt itself: a kernel
// that faults or hangs takes this process down, not kopt.

#include "harness/child_report.h"
#include "harness/bench_job.h"
#include "harness/block_channel.h"

namespace kopt::harness {

// Environment and usage problems throw kopt::error; what the kernel did wrong here (a guard
// overwritten, an input changed, a device fault, work outside the rules) is the returned
// report's status (failed, crashed). Its evidence lists the kept inputs' keys.
// A blocks job's version is loaded and then timed in the blocks `channel` asks for (a
// comparison in turns, kernel_protocol.h) instead; a profile job's runs the profiler window.
child_report run_kernel_job(const bench_job& job, block_channel* channel = nullptr);

}  // namespace kopt::harness
