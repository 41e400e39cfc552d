#pragma once
// The bench result: one type for every backend. The measuring child (kopt's harness for CUDA,
// the Python runner for Triton) writes what it measured as JSON; the parent reads it into this
// type, adds provenance, and writes the one document every caller sees (`--json`,
// `--json-out`, the loop, an MCP server), with every field present whatever the backend (null
// where it does not apply). Nested details (timing documents, per-seed checks, Triton facts)
// stay JSON inside it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"

namespace kopt::pipeline {

inline constexpr const char* bench_result_schema = "kopt.benchmark_result/v1";

struct correctness_summary {
  bool checked = false;                 // a reference was given
  std::optional<bool> passed;           // none when not checked or not reached
  std::optional<double> atol;           // the first output's tolerances (the Python toolkit's fields)
  std::optional<double> rtol;
  std::int64_t output_tensor_count = 0;
  json seeds = json::array();           // per seed: seed, when, passed, outputs
};

struct bench_result {
  std::string kopt_version;
  std::string status = "ok";            // ok, failed, crashed, timed_out
  std::string reason;                   // one line, names the class of failure
  std::string detail;                   // e.g. a Python traceback; "" when none
  std::string backend;                  // cuda, cutlass, triton
  std::string problem_source;           // where the problem came from ("" when not said)
  correctness_summary correctness;
  std::string protocol;                 // "cold: ..." / "hot: ..."; "" when nothing was timed
  std::vector<std::string> warnings;
  json kernel = nullptr;                // timing documents (harness/sampling.h), null when not timed
  json reference = nullptr;
  // Whether the reference's timing came from the cache (reference_timing_cache.h), was stored
  // there, or why neither; null when no cache was asked for or nothing was timed.
  json reference_timing_cache = nullptr;
  std::optional<double> speedup_vs_reference;
  json speedup_vs_reference_ci95 = nullptr;
  json kernel_vs_reference = nullptr;   // the A/B verdict
  json timed_call_checks = nullptr;
  json physical_floor = nullptr;
  json libraries_loaded_by_kernel = nullptr;
  json sanitizer = nullptr;
  json triton = nullptr;                // what Triton compiled and launched
  json reference_runner = nullptr;      // the Python reference's runner (CUDA kernel, .py reference)
  json python_runner = nullptr;         // the runner of a Triton kernel (and its reference)
  std::int64_t buffer_bytes = 0;        // [bytes] the buffers one call touches (0 when unknown)
  json phases_s = nullptr;              // [s] where the wall time went, per process and step
  json sandbox = nullptr;               // where the kernel's process could write (one line); null when not said
  // Provenance.
  std::string kernel_file;
  std::string reference_file;
  std::string gpu_name;
  std::string gpu_uuid;
  std::string arch;
  std::string driver_version;
  std::string driver_cuda_version;
  json nvcc_command = nullptr;          // argv; null for Triton
  std::string nvcc_version;
  std::uint64_t seed = 0;
  std::string signature;
  json dims = nullptr;

  bool ok() const { return status == "ok"; }
};

// What a measuring child wrote (any backend), read leniently: absent fields keep their defaults.
bench_result bench_result_from_child(const json& child_result);

// The document: schema first, then every field, null where it does not apply.
json to_json(const bench_result& result);

// A document read back (a --json-out file, say). Throws kopt::error naming `where` when its
// schema is not bench_result_schema or it lacks status or correctness.
bench_result read_bench_result(const json& document, const std::string& where);

}  // namespace kopt::pipeline
