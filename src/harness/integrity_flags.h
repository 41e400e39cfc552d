#pragma once
// Work that is timed honestly but that a reader must know about (EXPLOITS.md #12, #15, #21):
// side streams, persisting-L2 limits the kernel set, compute libraries it loaded. Pure; the
// warnings start with the class, as the failures' lines do.

#include <string>
#include <vector>

#include "harness/child_report.h"

namespace kopt::harness {

// Appends the flags to the report's warnings from its kernel timing and timed calls, and records
// `libraries` as libraries_loaded_by_kernel.
void add_integrity_flags(child_report& report, const std::vector<std::string>& libraries);

// A Triton module's process has torch (and with it cuBLAS) loaded before the module is, so a
// module handing its work to them is seen by the kernels its calls ran instead: every kernel in
// the kernel timing's kernel_names that Triton did not compile (`triton_kernels`, the names the
// runner saw Triton launch) is a library's, and gets a warning that names them.
void add_library_kernels_flag(child_report& report, const std::vector<std::string>& triton_kernels);

}  // namespace kopt::harness
