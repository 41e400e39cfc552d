#pragma once
// A bench's precision record (precision_settings.h): each side's settings from where that side
// has them (a Python side's runner in the result; a side nvcc built from its build's flags, its
// source and the environment its process gets), compared, with the warning in the result.

#include "harness/bench_job.h"
#include "pipeline/bench_preparation.h"
#include "pipeline/bench_result.h"

namespace kopt::pipeline {

// Sets `result.precision` and adds its warning, where both sides ran (a Python side that reported
// nothing, a kernel that failed before the reference ran, a run without a reference: no record).
void add_precision(bench_result& result, const prepared_bench& prepared, const harness::bench_job& job);

}  // namespace kopt::pipeline
