#include "cli/compile_failure.h"

#include <cstdio>

#include "core/error.h"

namespace kopt::cli {

int report_compile_failure(const std::string& file, const compile::compile_result& result) {
  std::fprintf(stderr, "kopt: compile failed: %s: %s (compiler output follows)\n%s", file.c_str(),
               result.failure_reason.c_str(), result.compiler_output.c_str());
  return static_cast<int>(exit_status::kernel_failed);
}

}  // namespace kopt::cli
