#pragma once
// Work that is timed honestly but that a reader must know about (EXPLOITS.md #12, #15, #21):
// side streams, persisting-L2 limits the kernel set, compute libraries it loaded. Pure; the
// warnings start with the class, as the failures' lines do.

#include <string>
#include <vector>

#include "core/json_io.h"

namespace kopt::harness {

// Appends the flags to result["warnings"] from result["kernel"] (the timing document) and
// result["timed_call_checks"], and records `libraries` as libraries_loaded_by_kernel.
void add_integrity_flags(json& result, const std::vector<std::string>& libraries);

// A Triton module's process has torch (and with it cuBLAS) loaded before the module is, so a
// module handing its work to them is seen by the kernels its calls ran instead: every kernel in
// result["kernel"]["kernel_names"] that Triton did not compile (`triton_kernels`, the names the
// runner saw Triton launch) is a library's, and gets a warning that names them.
void add_library_kernels_flag(json& result, const std::vector<std::string>& triton_kernels);

}  // namespace kopt::harness
