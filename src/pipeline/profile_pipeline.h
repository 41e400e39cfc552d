#pragma once
// `profile` as a function: one Nsight Compute pass over exactly the solve() calls inside kopt's
// profiler window (the measuring child in profile mode), exported to the CSV files `analyze`
// reads, published into the output folder with profile.json last. No command line, no printing.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/json_io.h"
#include "harness/bench_job.h"
#include "pipeline/bench_preparation.h"
#include "pipeline/measuring_worker.h"
#include "profile/ncu_command.h"
#include "profile/ncu_outcome.h"
#include "profile/profile_record.h"

namespace kopt::pipeline {

struct profile_request {
  bench_target target;
  harness::bench_job job;                    // warm-up and seed; profile mode is set here
  profile::ncu_capture_options capture;
  std::optional<int> profile_calls;          // none: 1, or enough for launch_skip + launch_count
  std::filesystem::path out;                 // empty: <kernel stem>_profile beside the kernel
  std::string ncu_bin;                       // empty: PATH, CUDA_HOME, /usr/local/cuda
  // Told as each step begins ("the capture: ..."), for a progress line or notification; may be empty.
  std::function<void(const std::string& step)> progress;
  // The text pages for people (profile/text_pages.h) written after this returns, by a process
  // of their own, rather than before: the loop's iterations, whose answer nothing there changes.
  bool text_pages_later = false;
};

struct profile_outcome {
  prepared_bench prepared;
  std::filesystem::path out;                 // where the files were published
  profile::profile_record record;
  json document = nullptr;                   // profile.json's contents, or the failure's document
  std::optional<profile::capture_outcome> failure;  // the capture's verdict when it was not ok
  exit_status status = exit_status::ok;
};

// `on_capture_start(ncu_command)` is told the ncu command line just before the capture starts
// (it can take minutes). Environment problems (no ncu, ncu refused) throw kopt::error; a
// kernel that fails or launches nothing in the window is an outcome with `failure` set.
profile_outcome run_profile(const profile_request& request, measuring_worker& worker,
                            const std::function<void(const std::string&)>& on_capture_start = {});

}  // namespace kopt::pipeline
