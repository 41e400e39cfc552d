#pragma once
// The problem (buffers, sizes, roles, value ranges) belongs to the reference, never to the
// code under test: a kernel that declares smaller buffers or easier inputs in its own
// annotation must not be judged on that easier problem (EXPLOITS.md #16). When the reference
// declares nothing, the kernel's declaration is used (the Python toolkit's files keep
// working) and the result says so; when both declare, they must agree.

#include <string>

#include "kernel/buffer_plan.h"

namespace kopt::harness {

struct problem_choice {
  const kernel::kernel_plan* plan = nullptr;  // the plan every buffer is made from
  std::string source;                         // "reference" or "kernel"
  std::string mismatch;                       // "" when the two agree; else the first difference
};

// `reference`: the reference's plan when it is a native .cu file with a solve() of its own, else
// null. The choice points into `kernel` or `*reference`, which must outlive it.
problem_choice choose_problem(const kernel::kernel_plan& kernel, const kernel::kernel_plan* reference);

}  // namespace kopt::harness
