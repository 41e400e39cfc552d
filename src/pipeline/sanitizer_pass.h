#pragma once
// `kopt bench --sanitize TOOL`: the kernel's validation run once under compute-sanitizer
// (memcheck, racecheck, initcheck or synccheck) before anything is timed, and what it found.
// The pass runs the kernel alone (no reference): findings are the kernel's own.

#include <string>
#include <vector>

#include "pipeline/bench_result.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "pipeline/measuring_worker.h"

namespace kopt::pipeline {

struct sanitizer_findings {
  int errors = 0;                      // from the tool's summary line; -1 when it printed none
  std::vector<std::string> report;     // the tool's report lines, prefix removed, banner dropped
};

// Pure: reads compute-sanitizer's output ("========= ..." lines).
sanitizer_findings parse_sanitizer_output(const std::string& output);

// Throws kopt::error for an unknown tool name.
void check_sanitizer_tool(const std::string& tool);

// Runs the pass: clean, errors, or failed (the kernel failed in another way under the tool).
// Throws kopt::error when compute-sanitizer is missing.
sanitizer_record run_sanitizer_pass(measuring_worker& worker, const std::string& tool, harness::bench_job job,
                       const env::gpu_device& device, int timeout_s);

}  // namespace kopt::pipeline
