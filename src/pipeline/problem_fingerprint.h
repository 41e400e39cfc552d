#pragma once
// What a version may not change: the problem it is judged on. Hashed at v0 and compared at
// every later iteration, so that a version declaring half-size buffers, other roles or other
// value ranges fails instead of being timed on an easier problem.

#include <string>

#include "kernel/buffer_plan.h"

namespace kopt::pipeline {

// SHA-256 over each buffer's name, element type, role, element count and value distribution,
// and each scalar's name, type and value, in parameter order. Where in the source they were
// declared (lines, spelling) does not count. A Triton plan (buffers from setup()) hashes its
// dimensions.
std::string problem_sha256(const kernel::kernel_plan& plan);

}  // namespace kopt::pipeline
