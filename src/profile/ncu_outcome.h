#pragma once
// What one ncu capture over the measuring child amounts to, decided from facts about the run
// (ncu's output, how it ended, whether the child and ncu wrote their files). Pure, so that
// every failure kopt profile reports can be tested without a GPU or ncu.

#include <string>

#include "profile/ncu_command.h"

namespace kopt::profile {

enum class capture_verdict {
  ok,
  environment_error,   // exit 2: counters not readable, ncu could not run the program, ...
  kernel_failed,       // exit 1: the kernel crashed, hung or failed under the profiler
  nothing_captured,    // exit 1: ncu profiled no launch
};

struct capture_facts {
  std::string ncu_output;        // ncu's stdout + stderr; the child's own output is mixed in
  bool ncu_started = false;
  std::string ncu_start_error;
  bool ncu_succeeded = false;    // exit code 0
  bool ncu_timed_out = false;
  std::string ncu_end;           // "exit code 1", "killed by signal 9 (Killed)", ...
  int timeout_s = 0;             // [s] --timeout
  int profile_calls = 1;         // solve() calls in the profiler window
  bool child_wrote_result = false;
  std::string child_status;      // the child's result status: "ok", "crashed", "failed"
  std::string child_reason;
  bool report_written = false;   // the .ncu-rep exists
};

struct capture_outcome {
  capture_verdict verdict = capture_verdict::ok;
  std::string headline;          // one line: the problem and what to do
  std::string detail;            // ncu's error lines and the like
};

capture_outcome judge_capture(const capture_facts& facts, const ncu_capture_options& options);

// The outcome when the report holds no launch (or ncu wrote none), with a hint that fits the
// filters in use.
capture_outcome nothing_captured(const ncu_capture_options& options, int profile_calls, const std::string& detail);

// ncu's ==ERROR== / ==WARNING== lines and the child's "kopt: ..." lines, at most `limit`.
std::string problem_lines(const std::string& output, std::size_t limit = 12);

}  // namespace kopt::profile
