#pragma once
// The verdict of a bench, as a pure function of what the two measuring processes reported and
// what comparing their outputs found: the status and reason, correctness, the timings kept (none
// for a kernel that failed), the speedup with its interval and A/B verdict, and the warnings.
// Running the processes and comparing the outputs is judged_run's; deciding is here alone.

#include <optional>
#include <string>

#include "harness/child_report.h"
#include "pipeline/bench_result.h"
#include "pipeline/output_verdict.h"

namespace kopt::pipeline {

struct judged_sides {
  harness::child_report kernel;  // the kernel's process (its death, as a report)
  bool has_reference = false;
  std::optional<std::string> reference_tampered;     // a reference file that changed while the kernel ran
  std::optional<harness::child_report> reference;    // the reference's process, when it ran
  std::optional<reference_cache_note> timing_cache;  // where the reference's timing came from
};

// Whether the reference's process is to run: there is a reference, its files are as they were,
// and the kernel kept outputs to compare (it passed, or failed after keeping some: the first
// failure in time is the verdict).
bool reference_needed(const judged_sides& sides);

// Whether the two sides' outputs are to be compared: the reference ran, passed, and found no
// hand of the kernel's in kopt's files.
bool outputs_comparable(const judged_sides& sides);

// The result (before provenance). `outputs`: judge_outputs with the folders when
// outputs_comparable(sides), without them otherwise.
bench_result bench_verdict(const judged_sides& sides, const outputs_judgement& outputs);

// "3 of 150 kernel samples ran while the GPU reported throttling", the speedup and its interval:
// what a result concludes from its timings (also for a result made in turns, say).
void add_timing_conclusions(bench_result& result);

}  // namespace kopt::pipeline
