#pragma once
// A bench job's Python reference run: kopt's Python runner computes the reference's outputs
// for every set of inputs the kernel was given (validation seeds and checked timed calls) and
// times the reference with the job's sampling options.

#include <cstdint>
#include <filesystem>
#include <map>

#include "harness/bench_job.h"
#include "harness/python_reference.h"
#include "harness/sampling.h"

namespace kopt::harness {

// The job's sampling options, as the engine takes them.
sampling_options sampling_of(const bench_job& job);

// `inputs` per key (a seed, or a checked call's key); unless the job is validation only, the
// reference is timed on `job.seed`'s inputs, which must be among them. The data goes through a private folder (memory-backed
// where /dev/shm is writable) that is removed afterwards.
// `triton`: the job's Triton problem (shapes and scalars for the reference's call), or null.
// `output_folders` (may be null): per key, where the runner leaves the outputs
// (python_reference_request::output_folders).
python_reference_result run_python_reference_job(
    const bench_job& job, const kernel::kernel_plan& plan, const triton_problem* triton,
    const std::map<std::uint64_t, buffer_contents>& inputs,
    const std::map<std::uint64_t, std::filesystem::path>* output_folders = nullptr);

// The same for a CUDA kernel's problem on the GPU, with no inputs given: the runner makes the
// inputs of every key of the job's validation part itself, as the kernel's process made them, and the
// outputs are left in its evidence folder (python_reference_request::job).
python_reference_result run_python_reference_keys(const bench_job& job, const kernel::kernel_plan& plan);

}  // namespace kopt::harness
