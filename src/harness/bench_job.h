#pragma once
// What `kopt bench` asks of a measuring child process (`kopt harness JOB RESULT`), as a JSON
// file: the sources and the library to load, the dimensions (the child plans the buffers
// itself with the same front end), and the validation and timing options. The kernel and the
// reference run in separate children ("role"): neither can reach the other's memory, and both
// leave their outputs in a folder of the parent's, which compares them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/document.h"
#include "core/json_io.h"
#include "harness/evidence_files.h"
#include "kernel/dimensions.h"
#include "measure/sampling_settings.h"

namespace kopt::harness {

// kernel: run and time the kernel, keep its outputs for the inputs in `evidence_dir`.
// reference: run the reference on each of `evidence` (made again from their keys), write its
// outputs there, and time it.
// problem: a Triton problem's setup() for the validation seeds, its tensors left in
// `evidence_dir` (pipeline/triton_problem_step.h).
enum class job_role { kernel, reference, problem };
BOOST_DESCRIBE_ENUM(job_role, kernel, reference, problem)

struct bench_job {
  static constexpr std::string_view document_schema = "kopt.harness_job/v5";
  job_role role = job_role::kernel;
  std::string evidence_dir;        // "": nothing to keep (no reference to compare with)
  std::vector<evidence_key> evidence;
  // A Triton kernel's problem (triton_problem.h), from the problem step the parent ran first;
  // null for CUDA, whose children plan the buffers from the sources themselves.
  json triton_problem = nullptr;
  // Whose setup() a Triton problem is ("reference" or "kernel"; "" before kopt checked): the
  // problem step gets the reference's clean environment unless it runs the kernel's own code.
  std::string problem_owner;
  std::string kernel_source;
  std::string kernel_library;
  std::string reference_source;    // "" without a reference
  std::string reference_library;   // a native .cu reference built like the kernel
  // A .py reference runs in kopt's Python runner, with this interpreter.
  std::string python;
  std::string python_runner;       // kopt_runner.py
  std::string harness_abi_library;      // libkopt_harness_abi.so, for timing the Python reference
  std::string backend;
  std::vector<kernel::dimension_arg> dims;
  std::optional<std::int64_t> ptr_size;
  std::vector<std::string> own_flag_names;
  std::vector<std::string> defines;  // -D NAME[=VALUE]: built with them, planned under them
  std::uint64_t seed = 0;
  int validation_seeds = 2;        // seeds validated before timing; one more after
  measure::sampling_settings sampling;
  std::optional<double> atol;
  std::optional<double> rtol;
  // Profile mode: after warm-up, only `profile_calls` solve() calls run between
  // cuProfilerStart and cuProfilerStop (ncu --profile-from-start off), and CUPTI is left
  // alone because ncu owns it. Nothing is validated or timed.
  bool profile_mode = false;
  int profile_calls = 1;
  // Validation only (the compute-sanitizer pass): the seeds are checked, nothing is timed and
  // CUPTI stays off.
  bool validation_only = false;
  // A comparison in turns (block_channel.h): after loading, time blocks as the parent asks on
  // standard input; nothing is validated. `turn_peers`: the other versions' processes of the
  // comparison, on the GPU with this one but idle while it times (not "other processes").
  bool timing_blocks = false;
  int turn_peers = 0;
  // Processes of this bench that hold an idle CUDA context on the GPU while this one times
  // (a Python reference's runner that made its context ahead: pipeline/prestarted_child.h):
  // not "other processes" either.
  int idle_peers = 0;
  // No GPU (CPU tests of the Triton path, under Triton's interpreter): every buffer in host
  // memory, the Python side on CPU tensors; validation only.
  bool host_only = false;
};
BOOST_DESCRIBE_STRUCT(bench_job, (),
                      (role, evidence_dir, evidence, triton_problem, problem_owner, kernel_source, kernel_library,
                       reference_source, reference_library, python, python_runner, harness_abi_library, backend, dims,
                       ptr_size, own_flag_names, defines, seed, validation_seeds, sampling, atol, rtol, profile_mode, profile_calls,
                       validation_only, timing_blocks, turn_peers, idle_peers, host_only))

bool has_python_reference(const bench_job& job);
// A reference with a solve() of its own (a .cu file).
bool has_native_reference(const bench_job& job);
bool is_reference_role(const bench_job& job);
bool is_problem_role(const bench_job& job);


}  // namespace kopt::harness
