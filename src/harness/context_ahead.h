#pragma once
// A kernel's measuring process started ahead (while kopt compiles the kernel) makes its CUDA
// context before its gate opens, so that the context's fraction of a second is spent during the
// build instead of after it. Only kopt's own code runs here: the kernel's library is loaded
// after the gate. Making a context is GPU work, so it happens only while this process holds the
// GPU's measuring lock, shared with other processes making theirs ahead (a Python reference's
// runner) and taken without waiting: when another kopt is measuring there, the context is made
// after the gate as usual, and never inside anyone's sampling window.

#include <filesystem>
#include <string>

#include "harness/child_report.h"

namespace kopt::harness {

struct context_ahead {
  bool made = false;
  double seconds = 0.0;  // spent making it, before the gate
  std::string why_not;   // when it was not made
};

// Makes the primary context of the process's device current while holding `gpu_lock` (an
// existing file; see pipeline::lock_gpu_for_measuring). Never throws: a failure leaves the
// context to the run, which reports it as it always does.
context_ahead make_context_ahead(const std::filesystem::path& gpu_lock);

// What the report says of it: the seconds it took among its phases (spent before the gate,
// during the build), or why it was not made.
void note_context_ahead(child_report& report, const context_ahead& ahead);

}  // namespace kopt::harness
