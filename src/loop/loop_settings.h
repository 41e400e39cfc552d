#pragma once
// What one call of the optimization loop is asked to do: the kernel file the agent edits and
// how to bench, profile and compare it, where the run lives, and the shapes it is judged at.
// Frozen at v0 where the problem is concerned (run_opening.h checks a later call against it).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/bench_job.h"
#include "kernel/check_shapes.h"
#include "pipeline/alternating_comparison.h"
#include "pipeline/bench_preparation.h"
#include "profile/ncu_command.h"

namespace kopt::loop {

// kopt loop --tune: each version that declares tune(...) parameters is tuned before it is
// judged (kopt tune, docs/tune.md), with this strategy and at most this many configurations.
struct loop_tuning {
  std::string strategy = "random";
  int budget = 16;
  std::uint64_t seed = 0;
};

struct loop_settings {
  pipeline::bench_target target;  // the kernel file the agent edits, its reference, dims
  harness::bench_job job;         // warm-up, repeat, seed, sampling limits
  std::optional<double> atol;
  std::optional<double> rtol;
  profile::ncu_capture_options capture;  // --kernel-name-regex, --launch-skip/count
  std::string ncu_bin;
  std::int64_t max_iterations = 1;
  std::filesystem::path run_dir;          // empty: a new run beside the kernel
  bool new_run = false;                   // run_dir is where a new run starts (else it must hold one)
  std::optional<std::int64_t> iteration;  // --iteration: must be the next one
  bool preflight_only = false;
  std::string op;  // "": the kernel's file stem
  std::string op_family;
  std::filesystem::path memory_db;
  // The Python toolkit's global_strategy_memory.json to import at the run's start (its flag
  // --global-memory-file); empty: one found beside the kernel is offered instead.
  std::filesystem::path global_memory_file;
  // The run's kernel file when v0 is read from another file: the Python toolkit's kernel, whose
  // run kopt adopts from the toolkit's v0 snapshot (toolkit_run_adoption.h). Empty: target.kernel.
  std::filesystem::path run_kernel;
  // The file this call's version was read from when target.kernel is kopt's copy of it beside the
  // kernel (work_file.h): a snapshot of the toolkit's run, measured where its includes resolve.
  // Empty: target.kernel.
  std::filesystem::path version_origin;
  std::vector<kernel::check_shape> check_shapes;  // --check-dims: judged there too; frozen at v0
  pipeline::turns_settings comparison;            // --compare-seconds: the budget of a comparison in turns
  std::optional<loop_tuning> tune;                // --tune: none, versions are measured as written
};

}  // namespace kopt::loop
