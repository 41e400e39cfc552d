#include "pipeline/bench_precision.h"

#include <cstdlib>

#include "core/files.h"
#include "pipeline/precision_settings.h"
#include "pipeline/reference_environment.h"

namespace kopt::pipeline {
namespace {

constexpr const char* tf32_override = "NVIDIA_TF32_OVERRIDE";

// The variable as a measuring process started by this one gets it.
std::optional<std::string> override_for(bool reference_side) {
  const char* value = std::getenv(tf32_override);
  if (value == nullptr || (reference_side && !kept_for_reference(tf32_override))) return std::nullopt;
  return std::string(value);
}

bool is_python(const std::string& source) { return source.ends_with(".py"); }

std::optional<precision_settings> kernel_side(const bench_result& result, const prepared_bench& prepared,
                                              const harness::bench_job& job) {
  if (is_python(job.kernel_source)) {
    if (!result.python_runner) return std::nullopt;
    return torch_side_precision(result.python_runner->torch);
  }
  return nvcc_side_precision(prepared.kernel_build.command, read_text_file(job.kernel_source, "kernel source"),
                             override_for(false));
}

std::optional<precision_settings> reference_side(const bench_result& result, const harness::bench_job& job) {
  if (is_python(job.reference_source)) {
    if (!result.reference_runner) return std::nullopt;
    return torch_side_precision(result.reference_runner->torch);
  }
  // A .cu reference is built like the kernel (compile/compiler.cpp): kopt's fixed flags, which
  // change no float semantics, and the same definitions.
  std::vector<std::string> flags;
  for (const std::string& define : job.defines) flags.push_back("-D" + define);
  return nvcc_side_precision(flags, read_text_file(job.reference_source, "reference source"), override_for(true));
}

}  // namespace

void add_precision(bench_result& result, const prepared_bench& prepared, const harness::bench_job& job) {
  if (job.reference_source.empty() || !result.correctness.checked) return;
  auto kernel = kernel_side(result, prepared, job);
  auto reference = reference_side(result, job);
  if (!kernel || !reference) return;
  result.precision = compare_precision(std::move(*kernel), std::move(*reference));
  if (const auto warning = precision_warning(*result.precision)) result.warnings.push_back(*warning);
}

}  // namespace kopt::pipeline
