#pragma once
// The one printer of a bench result: the readable text that `kopt bench` prints, the loop keeps
// as benchmark.stdout.txt and an MCP client gets, so that all of them say the same figures (the
// timing's headline estimate, its median and interval, the speedup with its verdict).

#include <string>

#include "pipeline/bench_result.h"

namespace kopt::pipeline {

// The checks per seed, what Triton compiled, GPU and host times of kernel and reference, the
// approximate bandwidth, the speedup with its interval, where the reference's timing came from,
// the Python runners' overhead, the warnings. Lines end with '\n'.
std::string bench_text(const bench_result& result);

// "kernel 0.0123 ms (median), 95 % interval of the median [0.0122, 0.0124], 1.52x the
// reference": a passed result in one line (without a newline). "" when nothing was timed.
std::string bench_summary_line(const bench_result& result);

// Where the run's wall time went: the parent's steps, each measuring process with its steps.
// "" when the result has no phases.
std::string phases_text(const bench_result& result);

// The compute-sanitizer pass: its outcome, and the tool's report when it found something.
std::string sanitizer_text(const sanitizer_record& pass);

}  // namespace kopt::pipeline
