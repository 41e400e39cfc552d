#include "harness/problem_source.h"

#include <fmt/format.h>

namespace kopt::harness {
namespace {

std::string describe(const kernel::buffer_spec& b) {
  return fmt::format("{}[{}] {} with values {}", b.param.name, b.elements, kernel::to_string(b.role), b.values.describe());
}

// The first buffer whose size, role or values differ, described from both sides.
std::string first_difference(const kernel::kernel_plan& kernel, const kernel::kernel_plan& reference) {
  if (kernel.buffers.size() != reference.buffers.size()) {
    return fmt::format("the kernel has {} buffers, the reference {}", kernel.buffers.size(), reference.buffers.size());
  }
  for (std::size_t i = 0; i < kernel.buffers.size(); ++i) {
    const auto& k = kernel.buffers[i];
    const auto& r = reference.buffers[i];
    if (k.param.name != r.param.name || k.elements != r.elements || k.role != r.role ||
        k.values.describe() != r.values.describe() || !(k.param.element == r.param.element)) {
      return fmt::format("the kernel declares {}, the reference {}", describe(k), describe(r));
    }
  }
  return "";
}

}  // namespace

problem_choice choose_problem(const kernel::kernel_plan& kernel, const kernel::kernel_plan* reference) {
  if (reference == nullptr || !reference->has_annotation) return {&kernel, "kernel", ""};
  problem_choice choice{reference, "reference", ""};
  if (kernel.has_annotation) choice.mismatch = first_difference(kernel, *reference);
  return choice;
}

}  // namespace kopt::harness
