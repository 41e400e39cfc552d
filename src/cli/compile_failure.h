#pragma once
// The one way a failed kernel build is reported: a first line naming the file and how nvcc
// ended, then the compiler's own output. Returns the exit status (1: the kernel failed).

#include <string>

#include "compile/compiler.h"

namespace kopt::cli {

int report_compile_failure(const std::string& file, const compile::compile_result& result);

}  // namespace kopt::cli
