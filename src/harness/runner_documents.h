#pragma once
// The documents kopt's Python runner and kopt exchange about a reference or a Triton kernel: the
// runner's torch and where its time went, a reference module's tolerances, a timing taken
// through libkopt_harness_abi, and the reference runner's result. Each is read by its checking
// reader on the side it arrives at.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"
#include "harness/run_status.h"
#include "measure/sampling_settings.h"
#include "measure/timing_document.h"

namespace kopt::harness {

// torch in a Python process: its version and the precision settings that change a result's time,
// each the least precise value the runner saw while the module ran (python/kopt_runtime/
// precision_watch.py: after loading it, after every call, after every call of torch's setters).
struct torch_facts {
  std::string version;
  std::string cuda;                      // "none" for a CPU build
  std::string float32_matmul_precision;  // "highest", "high", "medium"
  bool tf32_matmul = false;
  bool tf32_cudnn = false;
  std::optional<bool> fp16_reduced_precision_reduction;  // none: this torch has no such setting
  std::optional<bool> bf16_reduced_precision_reduction;
  std::optional<std::string> nvidia_tf32_override;       // the variable's value in the process; none: unset
  std::optional<bool> precision_changed;                 // a setting changed after the module was loaded
};
BOOST_DESCRIBE_STRUCT(torch_facts, (),
                      (version, cuda, float32_matmul_precision, tf32_matmul, tf32_cudnn, fp16_reduced_precision_reduction,
                       bf16_reduced_precision_reduction, nvidia_tf32_override, precision_changed))

// [s] Where a Python runner's time went; each figure only where that runner has it.
struct runner_overhead {
  std::optional<double> startup_s;          // the start, imports included
  std::optional<double> exchange_s;         // data crossing as files and clones
  std::optional<double> reference_calls_s;  // the reference's calls for its outputs
  std::optional<double> timing_s;           // sampling the reference
  std::optional<double> total_s;            // the runner's own clock, from its start
  std::optional<double> preload_s;          // started ahead: importing torch (and Triton)
  std::optional<double> gate_wait_s;        // started ahead: waiting for kopt's go line
  std::optional<double> context_ahead_s;    // started ahead: its CUDA context, made at kopt's request
  std::optional<double> runner_wall_s;      // kopt's clock, from the go line or the start
  std::optional<double> writing_inputs_s;   // kopt writing the inputs' files and the request
  std::optional<bool> runner_prestarted;
};
BOOST_DESCRIBE_STRUCT(runner_overhead, (),
                      (startup_s, exchange_s, reference_calls_s, timing_s, total_s, preload_s, gate_wait_s,
                       context_ahead_s, runner_wall_s, writing_inputs_s, runner_prestarted))

struct runner_facts {
  torch_facts torch;
  runner_overhead overhead_s;
};
BOOST_DESCRIBE_STRUCT(runner_facts, (), (torch, overhead_s))

// A reference module's own tolerances (`atol`, `rtol` attributes), where it names them.
struct tolerance_pair {
  std::optional<double> atol;
  std::optional<double> rtol;
};
BOOST_DESCRIBE_STRUCT(tolerance_pair, (), (atol, rtol))

// How a reference (or, through kopt_timing_sample, any code) is timed: the sampling options and,
// for the reference's runner, the seed whose inputs it is timed on.
struct timing_options : measure::sampling_settings {
  std::uint64_t seed = 0;
  bool judge = false;              // apply the judge's rules to every sample (the version under test)
  std::uint64_t output_bytes = 0;  // [bytes] of the call's outputs, for the host-copy rule
};
BOOST_DESCRIBE_STRUCT(timing_options, (measure::sampling_settings), (seed, judge, output_bytes))

// A parameter of the reference's call, as the runner makes it: a buffer (its dtype, element
// count, role; an output's poison; a Triton tensor's shape and strides) or a scalar's value.
struct runner_parameter {
  std::string name;
  std::string kind;          // "buffer" or "scalar"
  std::optional<int> index;  // its place in solve()'s parameters (none: a Triton scalar)
  std::optional<std::string> dtype;
  std::optional<std::int64_t> elements;
  std::optional<std::string> role;    // in, out, inout
  std::optional<std::string> poison;  // an out buffer's element, as hex bytes
  std::optional<std::vector<std::int64_t>> shape;
  std::optional<std::vector<std::int64_t>> strides;
  json value = nullptr;  // a scalar's value
};
BOOST_DESCRIBE_STRUCT(runner_parameter, (),
                      (name, kind, index, dtype, elements, role, poison, shape, strides, value))

struct seed_folder_entry {
  std::uint64_t seed = 0;
  std::string dir;  // the seed's inputs as files; its outputs go there too
};
BOOST_DESCRIBE_STRUCT(seed_folder_entry, (), (seed, dir))

// What kopt asks of the Python reference runner.
struct reference_request {
  static constexpr std::string_view document_schema = "kopt.reference_request/v2";
  std::string module;  // the reference .py
  std::string device;  // "cuda", or "cpu" (tests)
  std::string harness_abi_library;
  std::vector<runner_parameter> parameters;
  std::vector<seed_folder_entry> seeds;  // none when the runner makes the inputs (job)
  std::optional<std::string> tolerances_file;
  std::optional<timing_options> timing;
  json job = nullptr;  // the reference's bench job, when the runner makes the inputs
};
BOOST_DESCRIBE_STRUCT(reference_request, (),
                      (module, device, harness_abi_library, parameters, seeds, tolerances_file, timing, job))

// A call of the code under test that failed, as the runner reports it to kopt's protocol
// (run_kernel() raised, the device failed) or kopt_timing_sample reports the judge's verdict.
struct call_failure {
  run_status status = run_status::failed;
  std::string reason;
  std::string detail;
};
BOOST_DESCRIBE_STRUCT(call_failure, (), (status, reason, detail))

// What a Triton kernel's runner tells kopt's protocol of itself at the end of the run.
struct triton_runner_facts {
  std::string backend;                 // "triton"
  std::string device;                  // "cuda", or "cpu" under Triton's interpreter
  json triton = nullptr;               // Triton's version, what it compiled and launched (open)
  std::string signature;               // run_kernel(...)
  json dims = nullptr;                 // the dimensions as setup() got them
  std::optional<std::string> sandbox;  // where the runner's writes were restricted to, in words
  runner_facts python_runner;
};
BOOST_DESCRIBE_STRUCT(triton_runner_facts, (),
                      (backend, device, triton, signature, dims, sandbox, python_runner))

// What a Triton problem's step (the runner's triton-problem command) answers: whose setup() made
// the problem, its tensors (layout, role, the values' facts; read by triton_problem.h) and
// scalars, and where the step could write.
struct problem_answer {
  run_status status = run_status::ok;
  std::string reason;
  std::string owner;  // "reference" or "kernel"
  std::string module;
  bool takes_seed = false;
  std::vector<std::string> order;  // run_kernel()'s parameters, in order
  json tensors = json::array();
  json scalars = json::object();
  std::optional<std::string> sandbox;
};
BOOST_DESCRIBE_STRUCT(problem_answer, (),
                      (status, reason, owner, module, takes_seed, order, tensors, scalars, sandbox))

// What kopt_timing_sample gives back: the timing document, the protocol it was taken under,
// and what the reader of the figures must know (another process on the GPU).
struct sampled_timing {
  measure::timing_document timing;
  std::string protocol;
  std::vector<std::string> warnings;
};
BOOST_DESCRIBE_STRUCT(sampled_timing, (), (timing, protocol, warnings))

// The Python reference runner's result file.
struct reference_runner_result {
  static constexpr std::string_view document_schema = "kopt.reference_result/v2";
  std::optional<double> atol;  // the module's attributes, where it sets them
  std::optional<double> rtol;
  torch_facts torch;
  std::optional<sampled_timing> timing;  // none when the reference was not timed
  runner_overhead overhead;
};
BOOST_DESCRIBE_STRUCT(reference_runner_result, (), (atol, rtol, torch, timing, overhead))

}  // namespace kopt::harness
