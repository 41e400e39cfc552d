#pragma once
// The environment the reference's measuring process gets: the user's own (the parent's, never
// the kernel process's), cut down to what locating the GPU driver, Python and its packages
// needs. Variables that change numerics or inject code (LD_PRELOAD, NVIDIA_TF32_OVERRIDE,
// TORCH_*, CUBLAS_*, ...) do not reach the reference, so its outputs and times do not depend
// on them. KOPT_REFERENCE_KEEP_ENV=NAME,NAME keeps more of the user's variables (a sanitizer's
// runtime in LD_PRELOAD, say).

#include <string>
#include <vector>

namespace kopt::pipeline {

// Whether the reference's process keeps variable `name`.
bool kept_for_reference(const std::string& name);

// The names of this process's environment that the reference's process must not get.
std::vector<std::string> variables_to_clear_for_reference();

}  // namespace kopt::pipeline
