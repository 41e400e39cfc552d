#pragma once
// The process worker's comparisons in turns: `kopt harness JOB RESULT` per job, loaded once and
// held open on a socket (core/conversing_process.h), timing a block when asked.

#include <memory>
#include <vector>

#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "pipeline/block_timing.h"

namespace kopt::pipeline {

// Opens `jobs` side by side on `device` (measuring_worker::open_block_timing says what it
// takes); a block taking longer than `block_timeout_s` fails its version as hung.
std::unique_ptr<block_timing> open_block_timing_processes(const std::vector<harness::bench_job>& jobs,
                                                          const env::gpu_device& device, int block_timeout_s);

}  // namespace kopt::pipeline
