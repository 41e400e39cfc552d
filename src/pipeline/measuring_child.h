#pragma once
// What a measuring child is, before any process starts: which program runs a job (`kopt
// harness`, or kopt's Python runner for a Triton kernel) and whether its result must carry the
// seal kopt gives it (child_seal.h).

#include <string>
#include <vector>

#include "harness/bench_job.h"

namespace kopt::pipeline {

// Whether a kernel of this backend runs in the Python runner (Triton) rather than `kopt harness`.
bool is_triton_backend(const std::string& backend);
bool is_triton(const harness::bench_job& job);

// The measuring child's command line: `kopt harness JOB RESULT`, or for a Triton kernel
// `PYTHON kopt_runner.py triton JOB RESULT` (its problem step: `triton-problem`; its reference
// runs through `kopt harness` as a CUDA kernel's .py reference does).
std::vector<std::string> measuring_child_argv(const harness::bench_job& job, const std::string& job_file,
                                              const std::string& result_file);

// Whether a child's result must carry the seal: the kernel's and the reference's, run as they
// are (not under a wrapper, not the Triton problem's setup()).
bool result_is_sealed(const std::vector<std::string>& wrapper, const harness::bench_job& job);

}  // namespace kopt::pipeline
