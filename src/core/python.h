#pragma once
// Which Python interpreter kopt runs for references, Triton kernels and probes.

#include <string>

namespace kopt {

// $KOPT_PYTHON when set, else "python3" (looked up on PATH when run).
std::string python_command();

}  // namespace kopt
