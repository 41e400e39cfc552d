#include "harness/seed_inputs.h"

#include "core/error.h"

namespace kopt::harness {
namespace {

class generated final : public seed_inputs {
 public:
  generated(input_generator& generator, const kernel::kernel_plan& plan) : m_generator(generator), m_plan(plan) {}

  void prepare(std::uint64_t seed, device_buffers& target) override {
    constexpr std::uint64_t validation_index = ~std::uint64_t{0};
    target.reset_to_canary();
    prepare_call_inputs(m_generator, m_plan, target, seed, validation_index);
  }

 private:
  input_generator& m_generator;
  const kernel::kernel_plan& m_plan;
};

class from_problem final : public seed_inputs {
 public:
  from_problem(const triton_problem& problem, bool check_digests) : m_problem(problem), m_check(check_digests) {}

  void prepare(std::uint64_t seed, device_buffers& target) override {
    target.prepare(read_triton_inputs(m_problem, seed, m_check));
  }

 private:
  const triton_problem& m_problem;
  bool m_check;
};

}  // namespace

std::unique_ptr<seed_inputs> generated_seed_inputs(input_generator& generator, const kernel::kernel_plan& plan) {
  return std::make_unique<generated>(generator, plan);
}

std::unique_ptr<seed_inputs> problem_seed_inputs(const triton_problem& problem, bool check_digests) {
  return std::make_unique<from_problem>(problem, check_digests);
}

void prepare_key_inputs(seed_inputs& seeds, input_generator* generator, const kernel::kernel_plan& plan,
                        device_buffers& target, std::uint64_t run_seed, const evidence_key& key) {
  if (key.kind == evidence_kind::seed) {
    seeds.prepare(key.value, target);
    return;
  }
  if (generator == nullptr) throw error("a timed call's inputs need the GPU's input generator");
  prepare_call_inputs(*generator, plan, target, run_seed, key.value);
}

}  // namespace kopt::harness
