#pragma once
// Where a validation seed's inputs come from, the one thing that differs between backends
// before a call: for a CUDA kernel, kopt's device generator draws them from the declared
// distributions; for a Triton module, they are what the problem's setup() returned for that
// seed (triton_problem.h). Timed calls always get the generator's fresh inputs.

#include <cstdint>
#include <memory>

#include "harness/device_buffers.h"
#include "harness/evidence_files.h"
#include "harness/input_generator.h"
#include "harness/triton_problem.h"
#include "kernel/buffer_plan.h"

namespace kopt::harness {

class seed_inputs {
 public:
  virtual ~seed_inputs() = default;
  // Seed `seed`'s inputs in `target`: guards reset to the canary, `in` and `inout` buffers
  // filled, `out` buffers poisoned (enqueued; synchronise before reading).
  virtual void prepare(std::uint64_t seed, device_buffers& target) = 0;
};

// From the generator, with an index no timed call reaches.
std::unique_ptr<seed_inputs> generated_seed_inputs(input_generator& generator, const kernel::kernel_plan& plan);

// From the problem's files; `check_digests` on the reference's side (problem_changed thrown).
std::unique_ptr<seed_inputs> problem_seed_inputs(const triton_problem& problem, bool check_digests);

// A key's inputs in `target`: a validation seed's from `seeds`, a timed call's from the
// generator (required for those) with (run seed, call index).
void prepare_key_inputs(seed_inputs& seeds, input_generator* generator, const kernel::kernel_plan& plan,
                        device_buffers& target, std::uint64_t run_seed, const evidence_key& key);

}  // namespace kopt::harness
