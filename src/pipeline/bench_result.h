#pragma once
// The bench result: one typed document for every backend and every caller (`--json`,
// `--json-out`, the loop's benchmark_result.json, an MCP server), written by its description and
// read back by its checking reader. Every field is present whatever the backend (null or empty
// where it does not apply). The verdict (bench_verdict.h) makes it from the two sides' reports;
// its one printer (bench_text.h) reads it, never its JSON.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"
#include "core/phase_clock.h"
#include "harness/child_report.h"
#include "measure/comparison.h"
#include "measure/timing_document.h"
#include "pipeline/precision_settings.h"
#include "pipeline/printed_output.h"
#include "pipeline/run_provenance.h"

namespace kopt::pipeline {

// One validation seed's comparison of the kernel's outputs with the reference's.
struct seed_check {
  std::uint64_t seed = 0;
  std::string when;                     // "before timing", "after timing"
  std::optional<bool> passed;           // none: run and checked for guards and inputs, not compared
  json outputs = json::array();         // per output: validate's comparison (name, passed, summary, errors, ...)
};
BOOST_DESCRIBE_STRUCT(seed_check, (), (seed, when, passed, outputs))

struct correctness_summary {
  bool checked = false;                 // a reference was compared with
  std::optional<bool> passed;           // none when not checked or not reached
  std::optional<double> atol;           // the first output's tolerances (the Python toolkit's fields)
  std::optional<double> rtol;
  std::int64_t output_tensor_count = 0;
  std::vector<seed_check> seeds;
};
BOOST_DESCRIBE_STRUCT(correctness_summary, (), (checked, passed, atol, rtol, output_tensor_count, seeds))

// Where the reference's timing came from: the cache of earlier runs (reference_timing_cache.h),
// measured now and stored there, or measured now and not kept, with why.
struct reference_cache_note {
  bool from_cache = false;
  bool stored = false;
  std::optional<std::string> measured_at;  // a cached timing's UTC time
  std::optional<std::string> key;
  std::optional<std::string> why;          // why it was neither taken from nor kept in the cache
};
BOOST_DESCRIBE_STRUCT(reference_cache_note, (), (from_cache, stored, measured_at, key, why))

// `kopt bench --sanitize TOOL`: the validation run under compute-sanitizer, and what it found.
enum class sanitizer_status { clean, errors, failed };
BOOST_DESCRIBE_ENUM(sanitizer_status, clean, errors, failed)

struct sanitizer_record {
  std::string tool;
  std::vector<std::string> command;
  std::string compute_sanitizer_version;
  int errors = 0;                       // from the tool's summary line; -1 when it printed none
  std::vector<std::string> report;      // the tool's report lines
  sanitizer_status status = sanitizer_status::clean;
  std::optional<std::string> reason;    // failed: how the kernel failed under the tool
};
BOOST_DESCRIBE_STRUCT(sanitizer_record, (), (tool, command, compute_sanitizer_version, errors, report, status, reason))

// [s] Where a bench's wall time went: the parent's steps, and the steps inside each measuring
// process.
struct bench_phases {
  phase_seconds steps;
  phase_seconds kernel;
  phase_seconds reference;
};
BOOST_DESCRIBE_STRUCT(bench_phases, (), (steps, kernel, reference))

struct bench_result : run_provenance {
  static constexpr std::string_view document_schema = "kopt.benchmark_result/v4";
  std::string kopt_version;
  harness::run_status status = harness::run_status::ok;
  std::string reason;                   // one line, names the class of failure
  std::string detail;                   // e.g. a Python traceback; "" when none
  std::string problem_source;           // where the problem came from ("" when not said)
  correctness_summary correctness;
  std::string protocol;                 // "cold: ..." / "hot: ..."; "" when nothing was timed
  std::vector<std::string> warnings;
  std::optional<measure::timing_document> kernel;     // none when not timed or failed
  std::optional<measure::timing_document> reference;
  std::optional<reference_cache_note> reference_timing_cache;
  std::optional<double> speedup_vs_reference;        // reference headline / kernel headline
  std::optional<std::array<double, 2>> speedup_vs_reference_ci95;
  std::optional<measure::comparison_record> kernel_vs_reference;  // the A/B verdict
  std::optional<harness::timed_call_summary> timed_call_checks;
  std::optional<harness::physical_floor_record> physical_floor;
  // Without a reference: the first elements of every buffer after the first call.
  std::optional<std::vector<harness::buffer_preview>> previews;
  std::vector<std::string> libraries_loaded_by_kernel;
  std::vector<harness::kernel_ran> kernels_ran;  // the kernels the timed calls ran, by name and source
  std::optional<sanitizer_record> sanitizer;
  json triton = nullptr;                // what Triton compiled and launched (Triton's own facts)
  std::optional<harness::runner_facts> reference_runner;  // a Python reference's runner
  std::optional<harness::runner_facts> python_runner;     // a Triton kernel's runner
  bench_phases phases_s;
  std::optional<std::string> sandbox;   // where the kernel's process could write
  std::optional<printed_output> kernel_output;  // what the kernel's process printed; none: nothing
  std::optional<precision_record> precision;    // both sides' precision settings; none: not both ran

  bool ok() const { return status == harness::run_status::ok; }
};
// The provenance (run_provenance.h) is part of the document, its fields beside these.
BOOST_DESCRIBE_STRUCT(bench_result, (run_provenance),
                      (kopt_version, status, reason, detail, problem_source, correctness, protocol, warnings, kernel,
                       reference, reference_timing_cache, speedup_vs_reference, speedup_vs_reference_ci95,
                       kernel_vs_reference, timed_call_checks, physical_floor, previews, libraries_loaded_by_kernel,
                       kernels_ran, sanitizer, triton, reference_runner, python_runner, phases_s, sandbox, kernel_output, precision))

// A document read back (a --json-out file, a run folder's benchmark_result.json). Throws
// kopt::error naming `where` and the field the reader refuses.
bench_result read_bench_result(const json& document, const std::string& where);
bench_result read_bench_result_file(const std::filesystem::path& path);

}  // namespace kopt::pipeline
