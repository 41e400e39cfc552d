#pragma once
// A bench run as the parent conducts it. The kernel's measuring process runs and times the
// kernel and keeps its outputs for every set of inputs it was checked on; then, after it has
// ended, the reference's measuring process (its own, with a clean environment, the kernel's
// library never loaded) makes the same inputs again from their keys, runs the reference on
// them and times it; then this process compares the two sides' outputs and decides. The
// outputs cross through a private folder that is removed afterwards.

#include <functional>
#include <string>

#include "pipeline/bench_result.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "pipeline/measuring_worker.h"
#include "pipeline/output_verdict.h"
#include "pipeline/reference_timing_cache.h"

namespace kopt::pipeline {

// A cache of the reference's timing to use (reference_timing_cache.h), with what its key needs
// that the job does not say.
struct reference_timing_use {
  reference_timing_cache cache;
  std::string driver_version;
};

// The result of the run (before provenance), with the verdict (bench_verdict.h). A Triton job carries
// its problem (the problem step's, triton_problem_step.h): both children make their inputs
// from it, and the reference's checks that the kernel's did not change its files. Throws
// kopt::error as run_measuring_child does.
// `folders`: where each side's outputs go, under a private folder the caller made (and removes)
// before anything started, so that a process started ahead can be allowed to write there.
// `progress` (may be empty) is told as each of the three steps begins.
// `timing_cache` (may be null): the reference's timing is taken from it when an entry fits and
// the kernel's process could not have written it (the reference's process then only makes
// its outputs), and stored there when the reference was timed; `reference_timing_cache` in
// the result says which, or why neither.
bench_result run_judged(measuring_worker& worker, const harness::bench_job& job, const env::gpu_device& device,
                        int timeout_s, const evidence_folders& folders,
                        const std::function<void(const std::string&)>& progress = {},
                        const reference_timing_use* timing_cache = nullptr);

}  // namespace kopt::pipeline
