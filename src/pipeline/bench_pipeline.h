#pragma once
// `bench` as a function: validate the kernel against the reference and time both, from a
// typed request to the result document, with no command line and no printing. The CLI, the
// loop and an MCP server call it alike; the measuring worker is theirs to choose.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/json_io.h"
#include "harness/bench_job.h"
#include "pipeline/bench_preparation.h"
#include "pipeline/bench_result.h"
#include "pipeline/measuring_worker.h"
#include "pipeline/reference_timing_cache.h"

namespace kopt::pipeline {

struct bench_request {
  bench_target target;
  harness::bench_job job;          // sampling and validation options; sources are filled in
  std::optional<double> atol;
  std::optional<double> rtol;
  std::string sanitize;            // "": no compute-sanitizer pass; else its tool
  // Told as each long step begins ("the kernel's measuring process: validation and timing", ...),
  // for a progress line or notification; may be empty.
  std::function<void(const std::string& step)> progress;
  // Where the reference's timing is kept between benches (reference_timing_cache.h); none: the
  // reference is timed in every run.
  std::optional<std::filesystem::path> reference_timing_folder = default_reference_timing_folder();
};

struct bench_outcome {
  prepared_bench prepared;         // what was planned and built (provenance, the plan)
  std::optional<sanitizer_record> sanitizer;  // the compute-sanitizer pass, when one was asked for
  bench_result result;             // what the run found (status "failed" and no timings after a failed build)
  json document = nullptr;         // to_json(result); null after a failed build
  exit_status status = exit_status::ok;  // ok, or kernel_failed (build, validation, timing)
};

// Throws kopt::error naming --min-seconds and --max-seconds when the job's minimum sampling time
// is negative or above its limit (every run would then stop on the limit, unconverged).
void check_sampling_times(const harness::bench_job& job);

// Throws kopt::error for usage and environment problems (bad options, no GPU, a missing
// tool). A failed build is an outcome (prepared.failed_build), not an exception.
bench_outcome run_bench(const bench_request& request, measuring_worker& worker);

}  // namespace kopt::pipeline
