#pragma once
// What ncu's output says about its right to read the GPU's performance counters, and what to do
// about it: one matcher for preflight's probe and for kopt profile.

#include <string_view>

namespace kopt::tools {

// Whether ncu's output says it may not read the GPU's performance counters (ERR_NVGPUCTRPERM).
bool ncu_reports_counter_permission_error(std::string_view output);
inline constexpr const char* ncu_counter_permission_fix =
    "run as root, or load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0";

}  // namespace kopt::tools
