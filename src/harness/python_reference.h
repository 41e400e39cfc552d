#pragma once
// A Python reference (`reference(**kwargs)` writing into torch tensors) run by kopt's Python
// runner in its own process. For a CUDA kernel's problem on the GPU the runner makes every
// key's inputs itself through kopt's harness library, from the reference's bench job (`job`),
// and the library writes the outputs where the job says: no data crosses between processes.
// Otherwise the data crosses as files in a private work folder: for every
// seed, each buffer's bytes as the kernel got them (inputs and inout contents; outputs start
// as the poison the request names); the runner loads them into tensors on the device, calls
// the reference, and writes the outputs back. Files rather than shared device memory keep the two processes apart (a
// reference can never see the kernel's buffers) and cost little next to torch's start-up,
// which is measured and reported with the result. The runner also times the reference with
// kopt's own timing library, so both sides are measured by the same engine.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "harness/buffer_contents.h"
#include "harness/runner_documents.h"
#include "harness/triton_problem.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct python_reference_request {
  std::string python;                // interpreter
  std::filesystem::path runner;      // kopt_runner.py
  std::filesystem::path module;      // the reference .py
  std::filesystem::path harness_abi_library;  // libkopt_harness_abi.so (needed only with `timing`)
  std::filesystem::path work_dir;    // created and filled here; the caller removes it
  std::string device = "cuda";       // "cpu" runs the reference on CPU tensors (tests)
  const kernel::kernel_plan* plan = nullptr;
  // A Triton problem's tensor shapes and scalars (its reference takes setup()'s inputs); null
  // for a CUDA kernel's reference, which takes solve()'s flat buffers and the plan's scalars.
  const triton_problem* triton = nullptr;
  // Per seed, the `in`/`inout` contents (`out` entries ignored); owned by the caller, who
  // validates the kernel on the same inputs.
  const std::map<std::uint64_t, buffer_contents>* seeds = nullptr;
  // Per seed, the folder its files go to (made here), so that the runner's outputs,
  // `<name>.out.bin`, are left where the caller wants them (the reference's evidence folder:
  // evidence_files.h names them alike) and are not read back: `outputs` stays empty. Null:
  // work_dir/seed_<seed>, and the outputs come back in the result.
  const std::map<std::uint64_t, std::filesystem::path>* output_folders = nullptr;
  std::optional<timing_options> timing;  // its seed: whose data the reference is timed on
  std::chrono::seconds timeout{600};
  // Where the runner announces the module's tolerances once it has loaded it, before any
  // outputs (evidence_files.h, announced_tolerances_file); empty: nowhere.
  std::filesystem::path tolerances_file;
  // The reference's bench job: set, the runner makes the inputs of the job's keys itself
  // (kopt_run_reference_keys) and `seeds` and `output_folders` are unused.
  const json* job = nullptr;
};

struct python_reference_result {
  std::map<std::uint64_t, buffer_contents> outputs;  // per seed (none with output_folders); `in` entries empty
  // The runner's answer: the module's tolerances, torch's facts, the timing (none when not
  // asked), where its time went (with kopt's clock of the runner added).
  reference_runner_result answer;
};

// Throws kopt::error when the runner cannot start, the module has no usable `reference`, the
// reference raises (the first line names it, the traceback follows), or its outputs are
// missing. A reference that writes wrong values is not an error here: validation says so.
python_reference_result run_python_reference(const python_reference_request& request);

// The reference module checked without running it (and without torch): that it parses and
// defines `reference` at top level. Throws kopt::error naming the problem.
void check_python_reference(const std::string& python, const std::filesystem::path& runner,
                            const std::filesystem::path& module);

// The same for a Triton kernel module: that it parses and defines run_kernel() and setup()
// (which a .py `reference` defining its own setup() makes optional; empty: no reference).
// Returns whose setup() the problem is: "reference" or "kernel".
std::string check_triton_module(const std::string& python, const std::filesystem::path& runner,
                         const std::filesystem::path& module, const std::filesystem::path& reference);

}  // namespace kopt::harness
