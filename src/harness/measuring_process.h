#pragma once
// The measuring child's whole life (`kopt harness JOB RESULT`, a child of `kopt bench`, hidden
// from --help): restrict its writes, read the job, run the kernel's or the reference's side as
// its kind says, write the sealed report and leave at once. The command line only parses the
// options into `measuring_process_options`.

#include <string>
#include <vector>

namespace kopt::harness {

struct measuring_process_options {
  std::string job;     // the job file the parent wrote
  std::string result;  // where to write the report
  // Started ahead by the parent (pipeline/prestarted_child.h): wait for its go line before
  // reading the job.
  bool gated = false;
  std::string python;  // with `gated`: start this Python's runner now (a .py reference's)
  std::string runner;  // with `gated`: kopt's Python runner
  // With `gated`: restrict writes to these folders (and the usual ones) before the gate.
  std::vector<std::string> writes;
  // With `gated`: the GPU's lock; with `writes` the GPU context is made before the gate,
  // holding it, and with `python` the runner makes its context when the parent asks.
  std::string gpu_lock;
};

// Exits 0 with the result written, whatever the kernel did; throws kopt::error (the caller's
// exit 2) for an environment problem. A kernel that kills the process leaves no result.
[[noreturn]] void run_measuring_process(const measuring_process_options& options);

}  // namespace kopt::harness
