#pragma once
// Whether Nsight Compute can read this GPU's hardware counters: a real, tiny profile of a
// probe kernel built with nvcc (only run when a GPU is present).

#include <string>
#include <string_view>

#include "compile/arch.h"
#include "compile/toolchain.h"

namespace kopt::env {

struct ncu_probe_result {
  bool counters_readable = false;
  std::string detail;     // the measured duration, or why it failed
  std::string fix;        // what to do about a failure
};

ncu_probe_result probe_ncu_counters(const compile::located_tool& ncu, const compile::located_tool& nvcc,
                                    const compile::arch_target& arch,
                                    const std::string& device_uuid);

// Pure: whether ncu's output says it may not read the GPU's performance counters
// (ERR_NVGPUCTRPERM), and what to do about it. Shared by preflight and kopt profile.
bool ncu_reports_counter_permission_error(std::string_view output);
inline constexpr const char* ncu_counter_permission_fix =
    "run as root, or load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0";

// Pure: reads ncu's CSV output of the probe run and its exit status.
ncu_probe_result interpret_ncu_probe(const std::string& output, bool exited_ok);

}  // namespace kopt::env
