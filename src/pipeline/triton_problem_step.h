#pragma once
// The first step of every Triton run: the problem. A process of its own (kopt's Python runner,
// `triton-problem`, through the measuring worker) imports only the module whose setup()
// defines the problem (the reference's when it has one, else the kernel's), calls it for
// every validation seed and leaves the tensors in a private folder. The parent then records
// the problem for every later child (harness/triton_problem.h): the buffers, the digests of
// the files (so the reference's process can tell whether the kernel's changed them), and the
// distribution of each input, fitted to what setup() returned, for the timed calls' fresh
// inputs. A setup() that returns the same inputs for two seeds is seed blind (EXPLOITS.md #17).

#include <memory>
#include <optional>
#include <string>

#include "core/private_folder.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "harness/triton_problem.h"
#include "pipeline/measuring_worker.h"

namespace kopt::pipeline {

struct triton_problem_run {
  std::shared_ptr<const private_folder> folder;  // the tensors' files: keep it for the whole run
  harness::triton_problem problem;
  // "seed blindness: ..." when the kernel module's setup() ignores its seed: the kernel fails.
  std::optional<std::string> failure;
};

// A new private folder for a problem's tensors (core/private_folder.h).
std::shared_ptr<const private_folder> new_problem_folder();

// Runs the step for `job` (a Triton kernel's, with its sources, dimensions and seed) on
// `device`. A setup() that raises, breaks the contract or (as the reference's) ignores its
// seed throws kopt::error (exit 2) with the reason.
triton_problem_run run_triton_problem_step(measuring_worker& worker, const harness::bench_job& job,
                                           const env::gpu_device& device, int timeout_s);

// "seed blindness: ..." when the first two validation seeds gave the same bytes for every
// input tensor (and there is one). Pure over the problem's digests.
std::optional<std::string> seed_blindness(const harness::triton_problem& problem);

}  // namespace kopt::pipeline
