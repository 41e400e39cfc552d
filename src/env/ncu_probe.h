#pragma once
// Whether Nsight Compute can read this GPU's hardware counters: a real, tiny profile of a
// probe kernel built with nvcc (only run when a GPU is present).

#include <string>
#include <string_view>

#include "compile/arch.h"
#include "tools/toolchain.h"

namespace kopt::env {

struct ncu_probe_result {
  bool counters_readable = false;
  std::string detail;     // the measured duration, or why it failed
  std::string fix;        // what to do about a failure
};

ncu_probe_result probe_ncu_counters(const tools::located_tool& ncu, const tools::located_tool& nvcc,
                                    const compile::arch_target& arch,
                                    const std::string& device_uuid);

// Pure: reads ncu's CSV output of the probe run and its exit status.
ncu_probe_result interpret_ncu_probe(const std::string& output, bool exited_ok);

}  // namespace kopt::env
