#pragma once
// The readable table `kopt bench` prints from its result: the checks per seed, what Triton
// compiled, GPU and host times of kernel and reference, the approximate bandwidth, the
// speedup with its interval, the Python runner's overhead and the warnings.

#include <cstdint>
#include <cstdio>

#include "pipeline/bench_result.h"

namespace kopt::cli {

// `buffer_bytes` [bytes]: the buffers one call touches, for the labelled bandwidth estimate.
void print_bench_result(std::FILE* out, const pipeline::bench_result& result, std::int64_t buffer_bytes);

// Where the run's wall time went (result.phases_s): each measuring process with its steps, and
// the parent's verdict. Nothing when the result has no phases.
void print_phases(std::FILE* out, const pipeline::bench_result& result);

}  // namespace kopt::cli
