#include "loop/toolkit_run_manifest.h"

namespace kopt::loop {

bool is_toolkit_run_manifest(const json& document) {
  return document.is_object() && !document.contains("schema") && document.contains("iterations") &&
         document["iterations"].is_array();
}

std::optional<double> toolkit_median_ms(const toolkit_iteration& iteration) {
  if (iteration.benchmark_rc.value_or(1) != 0 || !iteration.benchmark_result) return std::nullopt;
  const std::optional<toolkit_kernel_figures>& kernel = iteration.benchmark_result->kernel;
  return kernel ? kernel->median_ms : std::nullopt;
}

}  // namespace kopt::loop
