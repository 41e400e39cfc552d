#include "pipeline/judged_run.h"

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "core/phase_clock.h"
#include "core/write_sandbox.h"
#include "harness/job_problem.h"
#include "pipeline/bench_verdict.h"
#include "pipeline/child_jobs.h"
#include "pipeline/child_verdict.h"
#include "pipeline/early_comparisons.h"
#include "pipeline/output_verdict.h"
#include "pipeline/reference_files.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

// The reference's timing as the cache has it for this run, or why the cache cannot be used.
struct timing_lookup {
  std::string why_not;  // "" when usable: the kernel's process could not have written the cache
  json fields = nullptr;
  std::string key;
  std::optional<cached_reference_timing> cached;
};

timing_lookup look_up_timing(const reference_timing_use& use, const harness::bench_job& job,
                             const kernel::kernel_plan& plan, const env::gpu_device& device,
                             const reference_files& held, const harness::child_report& kernel) {
  timing_lookup lookup;
  if (!out_of_kernel_reach(kernel.sandbox, use.cache.folder())) {
    lookup.why_not = fmt::format(
        "the kernel's process could have written {} ({}); the reference was timed now", use.cache.folder().string(),
        kernel.sandbox ? "its writes were restricted to folders that hold it: set KOPT_CACHE_DIR outside them"
                       : "its writes were not restricted");
    return lookup;
  }
  lookup.fields = reference_timing_key_fields(job, plan, device, use.driver_version, held.content_digest());
  lookup.key = reference_timing_key(lookup.fields);
  lookup.cached = use.cache.find(lookup.key);
  return lookup;
}

std::optional<harness::torch_facts> torch_of(const harness::child_report& reference) {
  return reference.reference_runner ? std::optional(reference.reference_runner->torch) : std::nullopt;
}

bool same_torch(const std::optional<harness::torch_facts>& a, const std::optional<harness::torch_facts>& b) {
  return to_document(a) == to_document(b);
}

// Keeps the timing the reference's process measured now where the cache may be used, and
// returns what the result says of the cache: where the timing came from, or why it was not kept.
reference_cache_note keep_timing(const reference_timing_use& use, const timing_lookup& lookup,
                                 const std::optional<cached_reference_timing>& cached,
                                 const harness::child_report& reference) {
  reference_cache_note note;
  if (cached) {
    note.from_cache = true;
    note.measured_at = cached->measured_at;
    note.key = cached->key;
  } else if (!lookup.why_not.empty()) {
    note.why = lookup.why_not;
  } else if (!reference.reference) {
    note.why = "the reference's process reported no timing";
  } else if (const std::string trouble = use.cache.store(lookup.key, lookup.fields, *reference.reference,
                                                         torch_of(reference));
             trouble.empty()) {
    note.stored = true;
    note.key = lookup.key;
  } else {
    note.why = "the timing could not be kept: " + trouble;
  }
  return note;
}

// What both sides' runs share.
struct judged_run_inputs {
  measuring_worker& worker;
  const harness::bench_job& job;
  const env::gpu_device& device;
  int timeout_s;
  const evidence_folders& folders;
  const kernel::kernel_plan& plan;
  const std::function<void(const std::string&)>& say;
};

// The reference's process, after the kernel's, on the kernel's keys: its outputs compared as it
// marks each key complete, its timing measured or taken from the cache (and kept there).
// Fills sides.reference and sides.timing_cache, and `tolerances` with those the module
// announced; returns the keys compared early.
compared_keys run_reference_side(const judged_run_inputs& in, const std::optional<reference_files>& held,
                                 const reference_timing_use* timing_cache, judged_sides& sides,
                                 validate::tolerance_overrides& tolerances, phase_clock& clock) {
  const harness::bench_job& job = in.job;
  const std::vector<harness::evidence_key>& keys = sides.kernel.evidence;
  std::optional<early_comparisons> early;
  const bool wants_timing = sides.kernel.ok() && sides.kernel.kernel.has_value();
  const timing_lookup lookup = wants_timing && timing_cache != nullptr
                                   ? look_up_timing(*timing_cache, job, in.plan, in.device, *held, sides.kernel)
                                   : timing_lookup{};
  const auto run_reference = [&](bool timed) {
    // Made afresh now that nothing of the kernel runs: a file or link it planted there (to be
    // written through by the reference, or linked to its own) is gone.
    early.reset();  // a second run's outputs are its own
    std::error_code ec;
    fs::remove_all(in.folders.reference, ec);
    fs::create_directories(in.folders.reference);
    // A .cu reference's tolerances are the flags' and its process runs once: what is compared
    // early is final, and its outputs can go at once. A .py module may name its own, which its
    // runner announces before its first outputs (early_comparisons.h).
    if (harness::has_python_reference(job)) {
      early.emplace(in.plan, keys, in.folders, tolerances, compared_outputs::kept, reference_tolerances::announced);
    } else {
      early.emplace(in.plan, keys, in.folders, tolerances, compared_outputs::removed);
    }
    in.say(timed ? "the reference's measuring process: its outputs, then its timing"
           : wants_timing ? "the reference's measuring process: its outputs (its timing is cached)"
                          : "the reference's measuring process: its outputs");
    return run_measuring_child(in.worker, reference_job(job, keys, in.folders.reference.string(), timed),
                               in.device, in.timeout_s, measuring_side::reference);
  };
  std::optional<cached_reference_timing> cached = lookup.cached;
  sides.reference = run_reference(wants_timing && !cached);
  if (cached && sides.reference->ok() && !same_torch(torch_of(*sides.reference), cached->torch)) {
    // Another torch (or TF32 setting) than the cached timing was taken with: time it now.
    cached.reset();
    sides.reference = run_reference(true);
  }
  clock.done("reference_process");
  if (!outputs_comparable(sides)) return {};
  harness::child_report& reference = *sides.reference;
  if (reference.reference_tolerance) {
    if (reference.reference_tolerance->atol) tolerances.reference_atol = reference.reference_tolerance->atol;
    if (reference.reference_tolerance->rtol) tolerances.reference_rtol = reference.reference_tolerance->rtol;
  }
  if (cached) reference.reference = cached->timing;
  if (wants_timing && timing_cache != nullptr) sides.timing_cache = keep_timing(*timing_cache, lookup, cached, reference);
  return early->take(tolerances);
}

}  // namespace

bench_result run_judged(measuring_worker& worker, const harness::bench_job& job, const env::gpu_device& device,
                        int timeout_s, const evidence_folders& folders,
                        const std::function<void(const std::string&)>& progress,
                        const reference_timing_use* timing_cache) {
  const std::function<void(const std::string&)> say = [&](const std::string& step) {
    if (progress) progress(step);
  };
  phase_clock clock;
  judged_sides sides;
  // Profile mode (what ncu runs) validates nothing: a Triton kernel's reference gave the problem
  // step its setup() and is not run again.
  sides.has_reference = !job.reference_source.empty() && !profiles(job);
  // The parent's own plan: from the sources for CUDA, from the job's problem for Triton.
  const harness::job_problem problem(job);
  const kernel::kernel_plan& plan = problem.plan();

  // What the reference's side will load, fingerprinted before any code under test runs.
  const std::optional<reference_files> held =
      sides.has_reference ? std::optional<reference_files>(job) : std::nullopt;
  const harness::bench_job kernel_side =
      profiles(job) ? profile_job(job) : kernel_job(job, sides.has_reference ? folders.kernel.string() : "");
  say(profiles(job) ? "the kernel's measuring process: the profiler window"
      : harness::is_timed(kernel_side)
          ? "the kernel's measuring process: validation, then timing with random checks"
          : "the kernel's measuring process: validation");
  const wrapped_child_run kernel_run = run_child(worker, kernel_side, device, timeout_s);
  sides.kernel = child_verdict(kernel_run, timeout_s, measuring_side::kernel);
  clock.done("kernel_process");
  sandbox_warning::for_this_process().note(sides.kernel.sandbox);  // once per command, when there was none
  const std::vector<harness::evidence_key>& keys = sides.kernel.evidence;
  validate::tolerance_overrides tolerances{job.atol, job.rtol, std::nullopt, std::nullopt};
  // Nothing of the kernel is left running now: a file it changed stays changed until loaded.
  if (held) sides.reference_tampered = held->changed();

  // The verdict's comparisons, begun as the reference's process marks each key's outputs.
  compared_keys compared_early;
  if (reference_needed(sides)) {
    const judged_run_inputs in{worker, job, device, timeout_s, folders, plan, say};
    compared_early = run_reference_side(in, held, timing_cache, sides, tolerances, clock);
  }
  const bool comparable = outputs_comparable(sides);
  if (comparable) say(fmt::format("the verdict: {} set(s) of outputs compared", keys.size()));
  const outputs_judgement outputs =
      judge_outputs(plan, keys, comparable ? &folders : nullptr, tolerances, &compared_early);
  clock.done("verdict");
  bench_result result = bench_verdict(sides, outputs);
  result.phases_s.steps = clock.phases();
  result.kernel_output = printed_output_of(kernel_run.process);  // the kernel's own printf, kept
  return result;
}

}  // namespace kopt::pipeline
