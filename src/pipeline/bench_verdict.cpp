#include "pipeline/bench_verdict.h"

#include <fmt/format.h>

#include "core/version.h"

namespace kopt::pipeline {
namespace {
using harness::run_status;

void fail(bench_result& result, const std::string& reason) {
  result.status = run_status::failed;
  result.reason = reason;
  result.detail.clear();
}

// The kernel's process's own findings, as the result starts.
bench_result from_kernel_side(const harness::child_report& k) {
  bench_result r;
  r.kopt_version = k.kopt_version.empty() ? std::string(version_string) : k.kopt_version;
  r.status = k.status;
  r.reason = k.reason;
  r.detail = k.detail;
  r.problem_source = k.problem_source;
  r.protocol = k.protocol;
  r.warnings = k.warnings;
  r.kernel = k.kernel;
  r.timed_call_checks = k.timed_call_checks;
  r.physical_floor = k.physical_floor;
  r.previews = k.previews;
  r.libraries_loaded_by_kernel = k.libraries_loaded_by_kernel;
  r.kernels_ran = k.kernels_ran;
  r.sandbox = k.sandbox;
  r.triton = k.triton;
  r.python_runner = k.python_runner;
  if (k.signature) r.signature = *k.signature;
  r.dims = k.dims;
  r.phases_s.kernel = k.phases_s;
  return r;
}

}  // namespace

bool reference_needed(const judged_sides& sides) {
  const harness::child_report& k = sides.kernel;
  const bool kept_outputs = k.ok() || (k.status == run_status::failed && !k.evidence.empty());
  return sides.has_reference && !sides.reference_tampered && kept_outputs;
}

bool outputs_comparable(const judged_sides& sides) {
  return reference_needed(sides) && sides.reference && sides.reference->ok() &&
         !sides.reference->kernel_at_fault;
}

bench_result bench_verdict(const judged_sides& sides, const outputs_judgement& outputs) {
  bench_result result = from_kernel_side(sides.kernel);
  const bool compared = outputs_comparable(sides);
  bool reference_failed = false;
  if (sides.reference_tampered) {
    fail(result,
         fmt::format("reference tampering: {} changed while the kernel's measuring process ran; the "
                     "reference's side loads it, so the run cannot be judged (restore it: rebuild, or "
                     "reinstall kopt)",
                     *sides.reference_tampered));
  } else if (reference_needed(sides) && sides.reference) {
    const harness::child_report& ref = *sides.reference;
    result.phases_s.reference = ref.phases_s;
    if (ref.kernel_at_fault) {
      // The reference's process found the kernel's hand in kopt's files (the Triton problem's).
      fail(result, ref.reason.empty() ? "the kernel changed kopt's files" : ref.reason);
    } else if (!ref.ok()) {
      // A kernel that had failed already keeps its own verdict.
      if (sides.kernel.ok()) {
        reference_failed = true;
        result.status = ref.status;
        result.reason = ref.reason.empty() ? "the reference failed" : ref.reason;
      }
    } else {
      result.reference = ref.reference;
      result.reference_runner = ref.reference_runner;
      result.reference_timing_cache = sides.timing_cache;
    }
  }
  const bool ok_so_far = result.ok();
  result.correctness = outputs.correctness;
  bool outputs_passed = !outputs.failure;
  if (outputs.failure) fail(result, *outputs.failure);  // the first failure in time: a kept output came first
  if (compared && outputs.compared == 0 && ok_so_far && outputs_passed) {
    outputs_passed = false;
    fail(result,
         "nothing was compared: the kernel's measuring process kept no outputs (a kopt bug: report it with "
         "the command line)");
  }
  if (compared) result.correctness.passed = outputs_passed && ok_so_far;
  if (reference_failed) {
    // Nothing could be compared: whether the kernel is right is not known.
    result.correctness.checked = true;
    result.correctness.passed = std::nullopt;
  } else if (sides.has_reference && result.status == run_status::failed && !result.correctness.checked) {
    // The kernel failed a check in its own process (a guard, an input) or setup() ignored the
    // seed: the reference never ran. A crash or a hang leaves correctness unchecked.
    result.correctness.checked = true;
    result.correctness.passed = false;
  }
  if (!result.ok()) {
    // A kernel that failed has no timing figures, whichever check failed it.
    result.kernel.reset();
    result.reference.reset();
  } else {
    add_timing_conclusions(result);
  }
  return result;
}

void add_timing_conclusions(bench_result& result) {
  if (result.kernel && result.reference) {
    const double kernel_ms = result.kernel->headline_ms();
    result.speedup_vs_reference = kernel_ms > 0 ? result.reference->headline_ms() / kernel_ms : 0;
    const measure::comparison c =
        measure::compare_samples(result.reference->samples_ms, result.kernel->samples_ms);
    if (c.ratio_ci95.low > 0) {
      result.speedup_vs_reference_ci95 =
          std::array<double, 2>{1.0 / c.ratio_ci95.high, 1.0 / c.ratio_ci95.low};
    }
    result.kernel_vs_reference = measure::record_of(c);
  }
  for (const auto& [who, timing] :
       {std::pair{"kernel", &result.kernel}, std::pair{"reference", &result.reference}}) {
    if (!*timing) continue;
    if (const auto warning = measure::throttle_warning(who, **timing)) result.warnings.push_back(*warning);
  }
}

}  // namespace kopt::pipeline
