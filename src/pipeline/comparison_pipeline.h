#pragma once
// Comparing two built versions of one kernel in turns (alternating_comparison.h), as a function:
// the loop compares each version with the one it was built from this way, and `kopt compare`
// compares two files. Only timing: neither version is validated here (bench judges them).

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "harness/bench_job.h"
#include "pipeline/alternating_comparison.h"
#include "pipeline/bench_preparation.h"
#include "pipeline/measuring_worker.h"

namespace kopt::pipeline {

struct compared_version {
  std::filesystem::path source;   // for planning its buffers, as its bench did
  std::filesystem::path library;  // what its bench measured
};

struct comparison_request {
  bench_target target;     // dimensions, pointer size, defines, GPU (its kernel is not read)
  // Backend, seed, protocol (hot or cold), warm-up; for Triton also the problem (the problem
  // step's, as prepare_bench leaves it) and the Python runner.
  harness::bench_job job;
  compared_version candidate;
  compared_version incumbent;
  double expected_ms = 0;  // [ms] a median of the slower one, for the first block's size; 0: unknown
  turns_settings settings;
  int block_timeout_s = 120;  // a block taking longer fails its version as hung
};

// Every backend takes turns: a Triton version is held open in kopt's Python runner as a CUDA one
// is in `kopt harness`. A Triton job without its problem has it made from the candidate (its
// setup(), or the target's reference's), as its bench made it. Throws kopt::error for usage and
// environment problems (no GPU, a problem that cannot be made); a version that fails is the
// outcome's failure.
turns_outcome run_comparison(const comparison_request& request, measuring_worker& worker);

// `kopt compare BASELINE CANDIDATE`: two source files of one kernel.
struct file_comparison_request {
  bench_target target;  // dimensions, defines, GPU, nvcc (its kernel is not read)
  std::filesystem::path baseline;
  std::filesystem::path candidate;
  harness::bench_job job;  // seed, protocol
  turns_settings settings;
  // Told as each step begins (each build, the rounds), for a progress line or notification; may be empty.
  std::function<void(const std::string& step)> progress;
};

struct file_comparison {
  std::optional<build_failure> failed_build;  // set: nothing was timed
  env::gpu_device device;
  turns_outcome turns;
};

// Builds both as bench builds a kernel (no reference), checks that they declare the same
// problem, and compares them in turns. Throws kopt::error for usage problems (a Triton file,
// different problems) and as run_comparison does.
file_comparison compare_files(const file_comparison_request& request, measuring_worker& worker);

}  // namespace kopt::pipeline
