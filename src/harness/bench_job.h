#pragma once
// What `kopt bench` asks of a measuring child process (`kopt harness JOB RESULT`), as a JSON
// file: the sources and the library to load, the dimensions (the child plans the buffers
// itself with the same front end), and what to do with them, by kind. The kernel and the
// reference run in separate children: neither can reach the other's memory, and both leave
// their outputs in a folder of the parent's, which compares them.
//
// Each kind carries only its own part (parts_of_document says which): a field of another kind's
// part in a job is refused by name, so a job that means one thing cannot be read as another.
// The jobs of each kind are made from the front end's settings in one place
// (pipeline/child_jobs.h).

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

// kernel: validate the kernel on the seeds, keep its outputs in the validation's folder, and
// time it (unless the validation says it is not timed).
// reference: run the reference on the keys the kernel's process made, write its outputs, and
// time it (unless not timed).
// problem: a Triton problem's setup() for the validation seeds, its tensors left in the
// validation's folder (pipeline/triton_problem_step.h).
// profile: after warm-up, only `profile_calls` solve() calls run between cuProfilerStart and
// cuProfilerStop (ncu --profile-from-start off), and CUPTI is left alone because ncu owns it.
// Nothing is validated or timed.
// blocks: a comparison in turns (block_channel.h): after loading, time blocks as the parent
// asks on standard input; nothing is validated.
enum class job_kind { kernel, reference, problem, profile, blocks };
BOOST_DESCRIBE_ENUM(job_kind, kernel, reference, problem, profile, blocks)

// The kernel's, the reference's and a Triton problem's part: the seeds and where their outputs
// (or a problem's tensors) are kept for the parent.
struct job_validation {
  std::string evidence_dir;        // "": nothing to keep (no reference to compare with)
  std::vector<evidence_key> evidence;  // a reference's and a problem's: the keys to make again
  int seeds = 2;                       // seeds validated before timing; one more after
  bool timed = true;                   // kernel, reference: time after validating (a problem: never)
};
BOOST_DESCRIBE_STRUCT(job_validation, (), (evidence_dir, evidence, seeds, timed))

struct bench_job {
  static constexpr std::string_view document_schema = "kopt.harness_job/v6";
  job_kind kind = job_kind::kernel;
  // What is loaded (every kind).
  std::string kernel_source;
  std::string kernel_library;
  std::string reference_source;    // "" without a reference
  std::string reference_library;   // a native .cu reference built like the kernel
  // A .py reference and a Triton kernel run in kopt's Python runner, with this interpreter.
  std::string python;
  std::string python_runner;       // kopt_runner.py
  std::string harness_abi_library;  // libkopt_harness_abi.so, for timing in the Python runner
  std::string backend;
  // The problem, planned again by the child (every kind).
  std::vector<kernel::dimension_arg> dims;
  std::optional<std::int64_t> ptr_size;
  std::vector<std::string> defines;  // -D NAME[=VALUE]: built with them, planned under them
  // A Triton kernel's problem (triton_problem.h), from the problem step the parent ran first;
  // null for CUDA, whose children plan the buffers from the sources themselves.
  json triton_problem = nullptr;
  std::uint64_t seed = 0;
  measure::sampling_settings sampling;  // a profile's and a block's warm-up; a timed side's sampling
  // No GPU (CPU tests of the Triton path, under Triton's interpreter): every buffer in host
  // memory, the Python side on CPU tensors; validation only.
  bool host_only = false;
  // The parent's, never the child's: tolerances the verdict compares with (none: the
  // reference's announced ones, else by output type), kept with the job so that every front end
  // hands them down alike.
  std::optional<double> atol;
  std::optional<double> rtol;

  // kernel, reference, problem.
  std::optional<job_validation> validation;
  // problem: whose setup() it is ("reference" or "kernel"): the problem step gets the
  // reference's clean environment unless it runs the kernel's own code.
  std::optional<std::string> problem_owner;
  // profile: the solve() calls inside the profiler window.
  std::optional<int> profile_calls;
  // blocks: the other versions' processes of the comparison, on the GPU with this one but idle
  // while it times (not "other processes").
  std::optional<int> turn_peers;
  // kernel: processes of this bench that hold an idle CUDA context on the GPU while
  // this one times (a Python reference's runner that made its context ahead:
  // pipeline/prestarted_child.h): not "other processes" either.
  std::optional<int> idle_peers;
};
BOOST_DESCRIBE_STRUCT(bench_job, (),
                      (kind, kernel_source, kernel_library, reference_source, reference_library, python,
                       python_runner, harness_abi_library, backend, dims, ptr_size, defines, triton_problem,
                       seed, sampling, host_only, atol, rtol, validation, problem_owner, profile_calls,
                       turn_peers, idle_peers))

}  // namespace kopt::harness

template <>
inline constexpr auto kopt::document_ranges<kopt::harness::job_validation> =
    std::make_tuple(kopt::within(&kopt::harness::job_validation::seeds, 0, 1000));
template <>
inline constexpr auto kopt::document_ranges<kopt::harness::bench_job> =
    std::make_tuple(kopt::within(&kopt::harness::bench_job::profile_calls, 1, 1e6),
                    kopt::within(&kopt::harness::bench_job::turn_peers, 0, 1024),
                    kopt::within(&kopt::harness::bench_job::idle_peers, 0, 1024));

namespace kopt::harness {

// Which kinds carry which part (core/document.h): every reader of a job refuses another kind's
// part by name, kopt's and the Python runner's alike.
document_parts_table parts_of_document(const bench_job*);

bool has_python_reference(const bench_job& job);
// A reference with a solve() of its own (a .cu file).
bool has_native_reference(const bench_job& job);
// The job's validation part; throws kopt::error for a kind that has none.
const job_validation& validation_of(const bench_job& job);
// Whether the job's version is timed: a timed kernel or reference, or blocks.
bool is_timed(const bench_job& job);
// Where the job keeps outputs for the parent: "" when nothing is kept.
std::string evidence_dir_of(const bench_job& job);

}  // namespace kopt::harness
