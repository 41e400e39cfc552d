#include "pipeline/judged_run.h"

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "core/phase_clock.h"
#include "harness/job_problem.h"
#include "harness/result_fields.h"
#include "pipeline/bench_preparation.h"
#include "pipeline/early_comparisons.h"
#include "pipeline/output_verdict.h"
#include "pipeline/reference_files.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

void fail(json& result, const std::string& reason) {
  result["status"] = "failed";
  result["reason"] = reason;
}

// The reference's timing as the cache has it for this run, or why the cache cannot be used.
struct timing_lookup {
  std::string why_not;  // "" when usable: the kernel's process could not have written the cache
  json fields = nullptr;
  std::string key;
  std::optional<cached_reference_timing> cached;
};

timing_lookup look_up_timing(const reference_timing_use& use, const harness::bench_job& job,
                             const kernel::kernel_plan& plan, const env::gpu_device& device,
                             const reference_files& held, const json& kernel_result) {
  timing_lookup lookup;
  const json sandbox = kernel_result.value("sandbox", json(nullptr));
  if (!out_of_kernel_reach(sandbox, use.cache.folder())) {
    lookup.why_not = fmt::format(
        "the kernel's process could have written {} ({}); the reference was timed now", use.cache.folder().string(),
        sandbox.is_string() ? "its writes were restricted to folders that hold it: set KOPT_CACHE_DIR outside them"
                            : "its writes were not restricted");
    return lookup;
  }
  lookup.fields = reference_timing_key_fields(job, plan, device, use.driver_version, held.content_digest());
  lookup.key = reference_timing_key(lookup.fields);
  lookup.cached = use.cache.find(lookup.key);
  return lookup;
}

json torch_of(const json& reference_result) {
  const json runner = reference_result.value("reference_runner", json(nullptr));
  return runner.is_object() ? runner.value("torch", json(nullptr)) : json(nullptr);
}

// Keeps the timing the reference's process measured now where the cache may be used, and
// returns what the result says of the cache: where the timing came from, or why it was not kept.
json keep_timing(const reference_timing_use& use, const timing_lookup& lookup,
                 const std::optional<cached_reference_timing>& cached, const json& reference) {
  if (cached) return json{{"from_cache", true}, {"measured_at", cached->measured_at}, {"key", cached->key}};
  json note{{"from_cache", false}, {"stored", false}};
  if (!lookup.why_not.empty()) {
    note["why"] = lookup.why_not;
  } else if (!reference.contains("reference")) {
    note["why"] = "the reference's process reported no timing";
  } else {
    const std::string trouble = use.cache.store(lookup.key, lookup.fields, reference["reference"], torch_of(reference));
    if (trouble.empty()) {
      note["stored"] = true;
      note["key"] = lookup.key;
    } else {
      note["why"] = "the timing could not be kept: " + trouble;
    }
  }
  return note;
}

}  // namespace

json run_judged(measuring_worker& worker, const harness::bench_job& job, const env::gpu_device& device, int timeout_s,
                const evidence_folders& folders, const std::function<void(const std::string&)>& progress,
                const reference_timing_use* timing_cache) {
  const auto say = [&](const std::string& step) {
    if (progress) progress(step);
  };
  phase_clock clock;
  const bool has_reference = !job.reference_source.empty();
  // The parent's own plan: from the sources for CUDA, from the job's problem for Triton.
  const harness::job_problem problem(job);
  const kernel::kernel_plan& plan = problem.plan();

  // What the reference's side will load, fingerprinted before any code under test runs.
  const std::optional<reference_files> held = has_reference ? std::optional<reference_files>(job) : std::nullopt;
  harness::bench_job kernel_job = job;
  kernel_job.role = "kernel";
  kernel_job.reference_library.clear();  // the reference is never loaded beside the kernel
  kernel_job.evidence_dir = has_reference ? folders.kernel.string() : "";
  say(job.validation_only ? "the kernel's measuring process: validation"
                          : "the kernel's measuring process: validation, then timing with random checks");
  json result = run_measuring_child(worker, kernel_job, device, timeout_s, measuring_side::kernel);
  clock.done("kernel_process");
  json phases = json{{"kernel", result.value("phases_s", json(nullptr))}};
  const std::vector<harness::evidence_key> keys = harness::evidence_keys_from_json(result.value("evidence", json::array()));
  result.erase("evidence");
  validate::tolerance_overrides tolerances{job.atol, job.rtol, std::nullopt, std::nullopt};

  bool reference_failed = false;
  // A kernel that failed in its own process after keeping outputs (a judge's verdict while
  // timed, say) may have gone wrong before: the reference makes the kept keys' outputs too, and
  // the first failure in time is the verdict.
  const std::string kernel_status = result.value("status", "");
  const bool compare = kernel_status == "ok" || (kernel_status == "failed" && !keys.empty());
  bool compared = false;
  // The verdict's comparisons, begun as the reference's process marks each key's outputs.
  std::optional<early_comparisons> early;
  compared_keys compared_early;
  // Nothing of the kernel is left running now: a file it changed stays changed until loaded.
  const std::optional<std::string> tampered = held ? held->changed() : std::nullopt;
  if (tampered) {
    fail(result, fmt::format("reference tampering: {} changed while the kernel's measuring process ran; the "
                             "reference's side loads it, so the run cannot be judged (restore it: rebuild, or "
                             "reinstall kopt)",
                             *tampered));
  } else if (has_reference && compare) {
    const bool wants_timing = kernel_status == "ok" && result.contains("kernel");
    const timing_lookup lookup = wants_timing && timing_cache != nullptr
                                     ? look_up_timing(*timing_cache, job, plan, device, *held, result)
                                     : timing_lookup{};
    const auto run_reference = [&](bool timed) {
      harness::bench_job reference_job = job;
      reference_job.role = "reference";
      reference_job.kernel_library.clear();  // nor the kernel beside the reference
      reference_job.evidence = keys;
      reference_job.evidence_dir = folders.reference.string();
      // Made afresh now that nothing of the kernel runs: a file or link it planted there (to be
      // written through by the reference, or linked to its own) is gone.
      early.reset();  // a second run's outputs are its own
      std::error_code ec;
      fs::remove_all(folders.reference, ec);
      fs::create_directories(folders.reference);
      // A .cu reference's tolerances are the flags' and its process runs once: what is compared
      // early is final, and its outputs can go at once. A .py module may name its own, which its
      // runner announces before its first outputs (early_comparisons.h).
      if (harness::has_python_reference(job)) {
        early.emplace(plan, keys, folders, tolerances, compared_outputs::kept,
                      reference_tolerances::announced);
      } else {
        early.emplace(plan, keys, folders, tolerances, compared_outputs::removed);
      }
      reference_job.validation_only = !timed;
      say(timed ? "the reference's measuring process: its outputs, then its timing"
                : wants_timing ? "the reference's measuring process: its outputs (its timing is cached)"
                               : "the reference's measuring process: its outputs");
      return run_measuring_child(worker, reference_job, device, timeout_s, measuring_side::reference);
    };
    std::optional<cached_reference_timing> cached = lookup.cached;
    json reference = run_reference(wants_timing && !cached);
    if (cached && reference.value("status", "") == "ok" && torch_of(reference) != cached->torch) {
      // Another torch (or TF32 setting) than the cached timing was taken with: time it now.
      cached.reset();
      reference = run_reference(true);
    }
    clock.done("reference_process");
    phases["reference"] = reference.value("phases_s", json(nullptr));
    if (reference.value("kernel_at_fault", false)) {
      // The reference's process found the kernel's hand in kopt's files (the Triton problem's).
      fail(result, reference.value("reason", "the kernel changed kopt's files"));
    } else if (reference.value("status", "") != "ok") {
      // A kernel that had failed already keeps its own verdict.
      if (kernel_status == "ok") {
        reference_failed = true;
        result["status"] = reference.value("status", "crashed");
        result["reason"] = reference.value("reason", "the reference failed");
      }
    } else {
      if (reference.contains("reference_tolerance")) {
        const json& t = reference["reference_tolerance"];
        if (t["atol"].is_number()) tolerances.reference_atol = t["atol"].get<double>();
        if (t["rtol"].is_number()) tolerances.reference_rtol = t["rtol"].get<double>();
      }
      if (cached) reference["reference"] = cached->timing;
      for (const char* field : {"reference", "reference_runner"}) {
        if (reference.contains(field)) result[field] = reference[field];
      }
      if (wants_timing && timing_cache != nullptr) {
        result["reference_timing_cache"] = keep_timing(*timing_cache, lookup, cached, reference);
      }
      compared = true;
      compared_early = early->take(tolerances);
    }
  }
  early.reset();
  if (compared) say(fmt::format("the verdict: {} set(s) of outputs compared", keys.size()));
  judge_outputs(result, plan, keys, compared ? &folders : nullptr, tolerances, &compared_early);
  if (reference_failed) {
    // Nothing could be compared: whether the kernel is right is not known.
    result["correctness"]["checked"] = true;
    result["correctness"]["passed"] = nullptr;
  } else if (has_reference && result["status"] == "failed" && !result["correctness"]["checked"].get<bool>()) {
    // The kernel failed a check in its own process (a guard, an input) or setup() ignored the
    // seed: the reference never ran. A crash or a hang leaves correctness unchecked.
    result["correctness"]["checked"] = true;
    result["correctness"]["passed"] = false;
  }
  clock.done("verdict");
  phases.update(clock.phases());
  result["phases_s"] = phases;
  if (result["status"] != "ok") {
    // A kernel that failed has no timing figures, whichever check failed it.
    result.erase("kernel");
    result.erase("reference");
  } else if (result.contains("kernel")) {
    harness::add_timing_conclusions(result);
  }
  return result;
}

}  // namespace kopt::pipeline
