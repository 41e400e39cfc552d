#include "harness/output_checks.h"

#include <cstring>

#include <fmt/format.h>

#include "harness/poison.h"
#include "validate/output_comparison.h"

namespace kopt::harness {

using kernel::buffer_role;

std::optional<std::string> check_guards_and_inputs(const kernel::kernel_plan& plan, const device_buffers& buffers,
                                                   const buffer_contents& inputs) {
  if (const auto damaged = buffers.guard_violations(); !damaged.empty()) {
    return fmt::format("out of bounds: {}", damaged.front());
  }
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    if (plan.buffers[i].role != buffer_role::in) continue;
    const auto after = buffers.download(i);
    if (after.size() != inputs.at(i).size() || std::memcmp(after.data(), inputs[i].data(), after.size()) != 0) {
      const bool triton = plan.backend == kernel::backend::triton;
      return fmt::format("write into input: the kernel wrote into its input {} ({})", plan.buffers[i].param.name,
                         triton ? "not among setup()'s outputs" : "declared const");
    }
  }
  return std::nullopt;
}

outputs_verdict compare_outputs(const kernel::kernel_plan& plan, const buffer_contents& kernel_outputs,
                                const buffer_contents& expected, const validate::tolerance_overrides& tolerances) {
  outputs_verdict verdict;
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == buffer_role::in) continue;
    const validate::tolerance tol = validate::resolve_tolerance(b.param.element, tolerances);
    const auto comparison = validate::compare_output(b.param.name, b.param.element, kernel_outputs.at(i), expected.at(i),
                                                     poison_for(b.param.element).element_bits, tol);
    if (!comparison.passed && !verdict.failure) {
      verdict.failure = comparison.verdict();
      verdict.failing_output = b.param.name;
    }
    verdict.outputs.push_back(validate::to_json(comparison));
  }
  return verdict;
}

buffer_contents download_outputs(const kernel::kernel_plan& plan, const device_buffers& buffers) {
  buffer_contents outputs(plan.buffers.size());
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    if (plan.buffers[i].role != buffer_role::in) outputs[i] = buffers.download(i);
  }
  return outputs;
}

buffer_contents download_inputs(const kernel::kernel_plan& plan, const device_buffers& buffers) {
  buffer_contents inputs(plan.buffers.size());
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    if (plan.buffers[i].role != buffer_role::out) inputs[i] = buffers.download(i);
  }
  return inputs;
}

}  // namespace kopt::harness
