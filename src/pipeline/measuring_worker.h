#pragma once
// The measuring worker: what the pipelines ask of the GPU side. It finds the GPUs and runs a
// bench job in a measuring child process (`kopt harness JOB RESULT`, or kopt's Python runner
// for a Triton kernel), optionally under a wrapper (ncu, compute-sanitizer). The one
// implementation that touches a GPU starts one child per job; CPU tests put a recorded worker
// (recorded_worker.h) in its place, as a build tool's tests substitute a fake command runner.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "core/private_folder.h"
#include "core/subprocess.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "pipeline/block_timing.h"

namespace kopt::pipeline {

struct wrapped_child_run {
  std::optional<json> result;   // what the child wrote; none when it died first
  process_result process;       // how the child (or its wrapper) ended, with all output
  bool forged_result = false;   // a result file without the seal kopt gave the child (child_seal.h)
};

class measuring_worker {
 public:
  virtual ~measuring_worker() = default;

  // The GPUs the worker can measure on.
  virtual env::gpu_probe_result probe_gpus() = 0;

  // Starts now, held at a gate, the measuring child that `job` will need later, so that its
  // slow start-up (Python importing torch and Triton) overlaps the build, the problem step and
  // the kernel's process. Only code kopt trusts runs before the gate opens (kopt, Python,
  // torch, Triton: no module of the user's, no job file, no GPU), and a process that will run
  // code under test restricts its writes first, as it would at its start. run() opens the gate
  // of the child whose job is what prestart() was told (kind, sources, Python and runner,
  // evidence folder, GPU) when nothing is wrapped, else starts a child of its own as always.
  // A worker may ignore it (the process worker starts only a Python reference's and a Triton
  // kernel's: other children start in milliseconds).
  virtual void prestart(const harness::bench_job& job, const env::gpu_device& device) {
    (void)job;
    (void)device;
  }
  // Ends a prestarted child that run() did not take.
  virtual void drop_prestarted() {}

  // In a kopt that keeps processes warm (keep_processes_warm()): the private folder the waiting
  // Triton problem process for a job like `job` writes in. The problem step keeps its tensors
  // there and names it in its job, and run() gives it that process. Null otherwise.
  virtual std::shared_ptr<const private_folder> warm_problem_folder(const harness::bench_job& job,
                                                                    const env::gpu_device& device) {
    (void)job;
    (void)device;
    return nullptr;
  }

  // Opens `jobs` (blocks jobs, CUDA kernels') side by side for a comparison in
  // turns on `device` (block_timing.h); a block taking longer than `block_timeout_s` fails its
  // version as hung. Throws kopt::error when the worker cannot (the default) or a process
  // cannot start.
  virtual std::unique_ptr<block_timing> open_block_timing(const std::vector<harness::bench_job>& jobs,
                                                          const env::gpu_device& device, int block_timeout_s);

  // Runs `WRAPPER... CHILD` on `job` with the GPU lock held and `device` as the only visible
  // GPU; `timeout_s` limits the whole run. A process the child leaves running is killed before
  // its result is read (process_request::ends_with_program). Judging the outcome is the caller's.
  virtual wrapped_child_run run(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                                const env::gpu_device& device, int timeout_s) = 0;
};

// One child process per job, on this machine's GPUs (process_worker.cpp).
std::unique_ptr<measuring_worker> make_process_worker();

// For a kopt that runs many commands (the warm worker, the MCP server, a loop with --agent):
// from now on, the process workers of this process keep a Python reference's and a Triton
// problem step's process started ahead from one command to the next (warm_processes.h).
void keep_processes_warm();

}  // namespace kopt::pipeline
