#pragma once
// A measuring process started ahead and held at its gate (core/gated_process.h): the job it was
// started for and the line that opens its gate. Only code kopt trusts runs before the gate
// (kopt, Python, torch, Triton: no module of the user's, no job file), and a process that will
// run code under test restricts its writes first, as it would at its start. None touches the
// GPU there, but a CUDA kernel's: it makes its context while holding the GPU's measuring lock
// (harness/context_ahead.h), so never inside another process's sampling.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/gated_process.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "pipeline/child_launch.h"

namespace kopt::pipeline {

struct prestarted_child {
  harness::bench_job job;
  std::string device_uuid;
  std::unique_ptr<child_launch> launch;
  std::unique_ptr<gated_process> process;
  std::string go_line;

  // Whether it may run `other` exactly as started (prestart_serves), unwrapped, on `device`.
  bool serves(const std::vector<std::string>& wrapper, const harness::bench_job& other,
              const env::gpu_device& device) const;

  // A Python reference's: asks its runner to make its CUDA context now, at the start of a
  // bench, so that it is made while the kernel's process makes its own (harness/reference_gate.h).
  // It is made once torch is loaded and only while no one measures on the GPU. Not asked with
  // KOPT_REFERENCE_CONTEXT_AHEAD=0 in the environment.
  void ask_for_gpu_context();
  // Whether it was asked and said that it made it (what it said so far, without waiting). Once
  // the caller holds the GPU's measuring lock the answer is final: the runner answers before it
  // lets the lock go, and cannot take it while the caller holds it.
  bool holds_gpu_context();
  bool was_asked_for_gpu_context() const { return m_context != context_state::not_asked; }

 private:
  enum class context_state { not_asked, asked, made, not_made };
  context_state m_context = context_state::not_asked;
};

// Whether a child started ahead for `ahead` may run `job`: the same kind, backend, sources,
// Python and runner, evidence folder and a problem's owner (what its command line, its
// environment and its write sandbox were made from).
bool prestart_serves(const harness::bench_job& ahead, const harness::bench_job& job);

bool is_python_reference(const harness::bench_job& job);
bool is_triton_kernel(const harness::bench_job& job);   // the kernel's own process (not profiled)
bool is_triton_problem(const harness::bench_job& job);  // the Triton problem step's process
bool is_cuda_kernel(const harness::bench_job& job);     // a CUDA or CUTLASS kernel's own (not profiled)

// A process for `job` (a Python reference's, a Triton kernel's or a Triton problem's), started
// now and held at its gate; nothing when it cannot start (the job's run then starts one the
// usual way and says why it cannot).
std::optional<prestarted_child> start_ahead(const harness::bench_job& job, const env::gpu_device& device);

}  // namespace kopt::pipeline
