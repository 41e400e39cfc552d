#pragma once
// Per-kernel resources as ptxas reports them while building the object (`nvcc
// --resource-usage`): registers, shared and constant memory, stack frame and spills.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_io.h"

namespace kopt::compile {

struct kernel_resources {
  std::string mangled_name;
  std::string name;                 // demangled, as a user wrote it
  std::string arch;                 // e.g. "sm_90a"
  int registers = 0;                // per thread
  int barriers = 0;
  std::int64_t static_shared_bytes = 0;   // [bytes] per block, excluding dynamic shared memory
  std::int64_t constant_bytes = 0;        // [bytes] cmem[0] (kernel parameters and constants)
  std::int64_t stack_frame_bytes = 0;     // [bytes] per thread, local memory for the frame
  std::int64_t spill_store_bytes = 0;     // [bytes] per thread
  std::int64_t spill_load_bytes = 0;      // [bytes] per thread
  std::int64_t cumulative_stack_bytes = 0;  // [bytes] frame plus callees' frames

  bool uses_local_memory() const { return stack_frame_bytes > 0 || spill_store_bytes > 0; }
};

// Pure parser of ptxas' verbose output; only entry functions (kernels) are reported.
std::vector<kernel_resources> parse_ptxas_resource_usage(std::string_view ptxas_output);

std::string demangle(const std::string& mangled);

json to_json(const kernel_resources& resources);
kernel_resources kernel_resources_from_json(const json& value);

}  // namespace kopt::compile
