#include "pipeline/output_verdict.h"

#include <fmt/format.h>

#include "core/error.h"
#include "harness/output_checks.h"

namespace kopt::pipeline {
namespace {
using harness::evidence_key;
using harness::evidence_kind;
using kernel::buffer_role;

// An `out` buffer is poisoned with NaN before each run: a kernel that reads it before writing
// it (y += ...) turns the poison into NaNs. Suggest the annotation that gives it real data.
// (The GPU drops the poison's payload, so a read poison shows as NaN; Triton's interpreter on
// the CPU keeps it, so there it reads as poison left in place.)
std::string read_before_write_hint(const kernel::kernel_plan& plan, const json& outputs) {
  for (const json& comparison : outputs) {
    if (comparison["passed"].get<bool>()) continue;
    const std::string name = comparison["name"].get<std::string>();
    const bool triton = plan.backend == kernel::backend::triton;
    bool poison_read = false;
    for (const auto& m : comparison["first_mismatches"]) {
      poison_read = poison_read || m["what"] == "NaN" || (triton && m["what"] == "left as poison");
    }
    for (const auto& b : plan.buffers) {
      if (b.param.name != name || b.role != buffer_role::out || !poison_read) continue;
      if (triton) {
        return fmt::format(" (outputs hold NaN poison before each run: if run_kernel reads {0} before writing it, "
                           "list it in setup()'s \"inout\")",
                           name);
      }
      return fmt::format(" (if the kernel reads {0} before writing it, declare it in the source: // kopt: inout({0}))", name);
    }
    return "";
  }
  return "";
}

std::string failure_reason(const kernel::kernel_plan& plan, const evidence_key& key,
                           const harness::outputs_verdict& verdict) {
  if (key.kind == evidence_kind::call) {
    return fmt::format("timed call {} (checked at random): {}", key.value, *verdict.failure);
  }
  return fmt::format("validation failed (seed {}): {}{}{}", key.value, *verdict.failure,
                     read_before_write_hint(plan, verdict.outputs),
                     key.when == "after timing" ? " (fresh inputs after timing)" : "");
}

}  // namespace

outputs_judgement judge_outputs(const kernel::kernel_plan& plan, const std::vector<evidence_key>& keys,
                                const evidence_folders* folders, const validate::tolerance_overrides& tolerances,
                                const std::vector<std::optional<harness::outputs_verdict>>* compared_already) {
  outputs_judgement judged;
  correctness_summary& correctness = judged.correctness;
  correctness.checked = folders != nullptr;
  for (std::size_t index = 0; index < keys.size(); ++index) {
    const evidence_key& key = keys[index];
    if (folders == nullptr) {
      // Run and checked for guards and inputs, but not compared: there is nothing to compare with.
      if (key.kind == evidence_kind::seed) correctness.seeds.push_back(seed_check{key.value, key.when, std::nullopt});
      continue;
    }
    harness::outputs_verdict verdict;
    if (compared_already != nullptr && index < compared_already->size() && (*compared_already)[index]) {
      verdict = *(*compared_already)[index];
    } else {
      harness::mapped_evidence kernel_side;
      try {
        kernel_side = harness::read_evidence(folders->kernel, key, plan, "the kernel's measuring process");
      } catch (const error& e) {
        // What the kernel's process left is missing, cut short or a link: its code had the folder
        // to write in, so this is the code under test's doing, and the run's verdict.
        if (!judged.failure) judged.failure = "evidence tampering: " + e.headline();
        break;
      }
      const harness::mapped_evidence reference_side =
          harness::read_evidence(folders->reference, key, plan, "the reference's measuring process");
      verdict = harness::compare_outputs(plan, kernel_side.buffers, reference_side.buffers, tolerances);
    }
    ++judged.compared;
    if (key.kind == evidence_kind::seed) {
      correctness.seeds.push_back(seed_check{key.value, key.when, !verdict.failure, verdict.outputs});
    }
    if (verdict.failure && !judged.failure) judged.failure = failure_reason(plan, key, verdict);
  }
  // The Python toolkit's fields: one atol/rtol (the first output's) and the output count.
  for (const auto& b : plan.buffers) {
    if (b.role == buffer_role::in) continue;
    if (correctness.output_tensor_count++ == 0) {
      const validate::tolerance tol = validate::resolve_tolerance(b.param.element, tolerances);
      correctness.atol = tol.atol;
      correctness.rtol = tol.rtol;
    }
  }
  return judged;
}

}  // namespace kopt::pipeline
