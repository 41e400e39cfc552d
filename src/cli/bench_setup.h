#pragma once
// What `kopt bench` and `kopt profile` share: the kernel and reference options, planning the
// buffers, building kernel and reference, and running the measuring child process
// (`kopt harness JOB RESULT`) under the per-GPU lock.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "compile/compiler.h"
#include "core/json_io.h"
#include "core/subprocess.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "kernel/buffer_plan.h"

namespace kopt::cli {

struct bench_target_options {
  std::string kernel;
  std::string ref;
  std::string backend;
  std::vector<std::string> dims;     // --dim NAME=VALUE
  std::int64_t ptr_size = 0;
  std::string arch;
  int gpu = 0;
  std::string nvcc_bin;
  int timeout = 600;                 // [s] limit of the measuring child
  // Which command plans, for its messages ("kopt bench"), and what it needs the GPU for.
  std::string command_name = "kopt bench";
  std::string gpu_purpose = "time on";

  // Declares the kernel positional and the options above on `sub` (which must allow extras:
  // dimensions arrive as --NAME=VALUE).
  void add_to(CLI::App& sub);
};

struct prepared_bench {
  std::filesystem::path kernel_file;
  std::filesystem::path ref_file;    // empty without a reference
  kernel::kernel_plan plan;
  env::gpu_probe_result gpus;
  env::gpu_device device;
  compile::compile_result kernel_build;
  // Set when the kernel or the native reference did not build: the exit status to return
  // (the compiler's report is already printed).
  std::optional<int> build_failed;
};

// Plans, checks the reference, finds the GPU and builds; fills the job's sources, libraries
// and dimensions. Throws kopt::error for usage and environment problems.
prepared_bench prepare_bench(const bench_target_options& options, CLI::App& sub, harness::bench_job& job);

// Runs the measuring child on `job` with the GPU lock held; a child that crashes or hangs becomes
// a result with status "crashed" / "timed_out". An environment error in the child (exit 2)
// is rethrown as kopt::error.
json run_measuring_child(const harness::bench_job& job, const env::gpu_device& device, int timeout_s);

struct wrapped_child_run {
  std::optional<json> result;   // what the child wrote; none when it died first
  process_result process;       // how the wrapper (e.g. ncu) ended, with all output
};

// Runs `WRAPPER... kopt harness JOB RESULT` with the GPU lock held and the chosen GPU as the
// only visible one (the wrapper passes its environment on to the child); `timeout_s` limits
// the whole wrapped run. Judging the outcome is the caller's: the wrapper's output says more
// than the child's exit.
wrapped_child_run run_wrapped_measuring_child(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                                              const env::gpu_device& device, int timeout_s);

// Whether the job's kernel runs in the Python runner (Triton) rather than `kopt harness`.
bool is_triton(const harness::bench_job& job);

// The measuring child's command line: `kopt harness JOB RESULT`, or for a Triton kernel
// `PYTHON kopt_runner.py triton JOB RESULT`.
std::vector<std::string> measuring_child_argv(const harness::bench_job& job, const std::string& job_file,
                                              const std::string& result_file);

// The provenance fields every bench result carries.
void add_provenance(json& result, const prepared_bench& prepared, const harness::bench_job& job);

}  // namespace kopt::cli
