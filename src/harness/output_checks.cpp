#include "harness/output_checks.h"

#include <fmt/format.h>

#include "harness/poison.h"
#include "validate/output_comparison.h"

namespace kopt::harness {

using kernel::buffer_role;

std::optional<std::string> check_guards_and_inputs(const kernel::kernel_plan& plan, const device_buffers& buffers,
                                                   const device_buffers& pristine) {
  if (const auto damaged = buffers.guard_violations(); !damaged.empty()) {
    return fmt::format("out of bounds: {}", damaged.front());
  }
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role != buffer_role::in) continue;
    if (!buffers.memory().same_bytes(buffers.data(i), pristine.data(i), static_cast<std::size_t>(b.bytes),
                                     fmt::format("checking input {}", b.param.name))) {
      const bool triton = plan.backend == kernel::backend::triton;
      return fmt::format("write into input: the kernel wrote into its input {} ({})", b.param.name,
                         triton ? "not among setup()'s outputs" : "declared const");
    }
  }
  return std::nullopt;
}

void copy_inputs(const kernel::kernel_plan& plan, const device_buffers& from, device_buffers& to) {
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role != buffer_role::in) continue;
    from.memory().copy(to.data(i), from.data(i), static_cast<std::size_t>(b.bytes),
                       fmt::format("keeping a copy of input {}", b.param.name));
  }
}

outputs_verdict compare_outputs(const kernel::kernel_plan& plan, const buffer_views& kernel_outputs,
                                const buffer_views& expected, const validate::tolerance_overrides& tolerances,
                                unsigned threads) {
  outputs_verdict verdict;
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (b.role == buffer_role::in) continue;
    const validate::tolerance tol = validate::resolve_tolerance(b.param.element, tolerances);
    const auto comparison = validate::compare_output(b.param.name, b.param.element, kernel_outputs.at(i), expected.at(i),
                                                     poison_for(b.param.element).element_bits, tol, threads);
    if (!comparison.passed && !verdict.failure) {
      verdict.failure = comparison.verdict();
      verdict.failing_output = b.param.name;
    }
    verdict.outputs.push_back(validate::to_json(comparison));
  }
  return verdict;
}

buffer_contents download_inputs(const kernel::kernel_plan& plan, const device_buffers& buffers) {
  buffer_contents inputs(plan.buffers.size());
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    if (plan.buffers[i].role != buffer_role::out) inputs[i] = buffers.download(i);
  }
  return inputs;
}

}  // namespace kopt::harness
