#pragma once
// The child report: what a measuring child (`kopt harness`, or kopt's Python runner for a Triton
// kernel, through libkopt_harness_abi) writes for the parent, which reads it with the checking
// reader and gives the verdict. One document for the kernel's side and the reference's; each
// fills its own parts and leaves the other's empty. A report that the reader refuses (a field
// missing, of the wrong type, unknown) is never taken for "ok".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"
#include "core/phase_clock.h"
#include "harness/buffer_previews.h"
#include "harness/evidence_files.h"
#include "harness/kernels_ran.h"
#include "harness/run_status.h"
#include "harness/runner_documents.h"
#include "measure/timing_document.h"

namespace kopt::harness {

// The timed calls of one run (or one block of a comparison in turns), each a call under test.
struct timed_call_summary {
  std::uint64_t calls = 0;
  std::size_t checked = 0;  // checked in full at random
  std::vector<std::uint64_t> checked_calls;
  std::size_t outputs_kept = 0;                  // handed to the parent to compare
  std::size_t outputs_unchecked_for_memory = 0;  // checked for guards and inputs only (evidence budget)
  std::string rule;                              // how calls are picked, in words
};
BOOST_DESCRIBE_STRUCT(timed_call_summary, (),
                      (calls, checked, checked_calls, outputs_kept, outputs_unchecked_for_memory, rule))

// What the problem must move through device memory, and the device's peak (physical_floor.h);
// what a copy reached before the timing (copy_bandwidth.h): the speed-of-light bound's.
struct physical_floor_record {
  // [bytes] what the problem must move through DRAM before a cold call ends: its inputs, and the
  // outputs the L2 cannot hold (physical_floor.h's floor_bytes).
  std::uint64_t problem_bytes = 0;
  double peak_dram_bytes_per_s = 0;  // [bytes/s]
  std::optional<double> measured_dram_bytes_per_s;  // [bytes/s] none when it could not be measured
};
BOOST_DESCRIBE_STRUCT(physical_floor_record, (), (problem_bytes, peak_dram_bytes_per_s, measured_dram_bytes_per_s))

struct child_report {
  static constexpr std::string_view document_schema = "kopt.child_report/v2";
  std::string kopt_version;
  run_status status = run_status::ok;
  std::string reason;  // one line naming the failure's class; "" when ok
  std::string detail;  // a traceback, say; "" when none
  std::vector<std::string> warnings;
  phase_seconds phases_s;  // [s] this process's steps, in order

  // The kernel's side.
  std::string problem_source;  // where the problem came from (problem_source.h)
  std::string protocol;        // "cold: ..." / "hot: ..."; "" when nothing was timed
  std::optional<measure::timing_document> kernel;
  std::optional<timed_call_summary> timed_call_checks;
  std::optional<physical_floor_record> physical_floor;
  // Without a reference: the buffers after the first validation call (buffer_previews.h).
  std::optional<std::vector<buffer_preview>> previews;
  std::vector<std::string> libraries_loaded_by_kernel;
  std::vector<std::string> library_kernels;  // Triton: kernels Triton did not compile
  std::vector<kernel_set_record> timed_kernel_sets;  // the sets of kernels the timed calls ran
  std::vector<kernel_ran> kernels_ran;               // each of those kernels, with its source
  std::vector<evidence_key> evidence;        // the inputs whose outputs it kept for the verdict, in order
  std::optional<std::string> sandbox;        // where its writes were restricted to, in words
  // Started ahead, it made its GPU context after its gate after all: why.
  std::optional<std::string> context_not_made_ahead;
  // A comparison in turns: the blocks it timed, over how many buffer placements, and their checks.
  int timing_blocks = 0;
  int placements = 0;
  std::vector<timed_call_summary> block_call_checks;
  // Profile mode: the solve() calls run between cuProfilerStart and cuProfilerStop.
  std::optional<int> profile_calls;
  // A Triton kernel's runner: what Triton compiled and launched (open: Triton's own facts), the
  // runner's torch and overhead, run_kernel()'s signature and the dimensions as setup() got them.
  json triton = nullptr;
  std::optional<runner_facts> python_runner;
  std::optional<std::string> signature;
  json dims = nullptr;

  // The reference's side.
  std::optional<measure::timing_document> reference;
  std::optional<runner_facts> reference_runner;
  std::optional<tolerance_pair> reference_tolerance;
  bool kernel_at_fault = false;  // it found the kernel's hand in kopt's files (status failed)

  bool ok() const { return status == run_status::ok; }
};
BOOST_DESCRIBE_STRUCT(child_report, (),
                      (kopt_version, status, reason, detail, warnings, phases_s, problem_source, protocol,
                       kernel, timed_call_checks, physical_floor, previews, libraries_loaded_by_kernel, library_kernels,
                       timed_kernel_sets, kernels_ran, evidence, sandbox, context_not_made_ahead, timing_blocks, placements,
                       block_call_checks, profile_calls, triton, python_runner, signature, dims, reference,
                       reference_runner, reference_tolerance, kernel_at_fault))

// A report of `status` with `reason`, as kopt's harness starts one (its version filled in).
child_report report_of(run_status status, std::string reason = {});

}  // namespace kopt::harness
