#include "pipeline/bench_pipeline.h"

#include <memory>

#include <fmt/format.h>

#include "core/after_the_answer.h"
#include "core/phase_clock.h"
#include "core/private_folder.h"
#include "core/version.h"

#include "pipeline/bench_precision.h"
#include "pipeline/judged_run.h"
#include "pipeline/sanitizer_pass.h"

namespace kopt::pipeline {
namespace {

// A sanitizer pass that found errors ends the run before timing: the result says why.
bench_result sanitizer_failure(const sanitizer_record& pass) {
  std::string first;
  for (const std::string& text : pass.report) {
    if (!text.empty() && text.front() != ' ' && text.rfind("Program hit", 0) != 0) {
      first = text;
      break;
    }
  }
  bench_result failed;
  failed.kopt_version = version_string;
  failed.status = harness::run_status::failed;
  failed.reason = pass.status == sanitizer_status::errors
                      ? fmt::format("compute-sanitizer {} found {} error(s){}", pass.tool, pass.errors,
                                    first.empty() ? "" : ": " + first)
                      : fmt::format("the kernel failed under compute-sanitizer {}: {}", pass.tool,
                                    pass.reason.value_or("see its report"));
  return failed;
}

// The provenance over the result's: a Triton kernel's signature and dimensions are its runner's
// (run_kernel()'s, setup()'s), which the verdict took from the kernel's report.
void add_provenance(bench_result& result, run_provenance provenance) {
  if (provenance.signature.empty()) {
    provenance.signature = result.signature;
    provenance.dims = result.dims;
  }
  static_cast<run_provenance&>(result) = std::move(provenance);
}

}  // namespace

void check_sampling_times(const harness::bench_job& job) {
  if (job.sampling.min_seconds < 0 || job.sampling.min_seconds > job.sampling.max_seconds) {
    throw error(
        fmt::format("sampling's minimum time ({} s, --min-seconds) is not between 0 and its limit ({} s, "
                    "--max-seconds): give a minimum at or below the limit",
                    job.sampling.min_seconds, job.sampling.max_seconds));
  }
}

bench_outcome run_bench(const bench_request& request, measuring_worker& worker) {
  if (!request.sanitize.empty()) check_sanitizer_tool(request.sanitize);
  check_sampling_times(request.job);
  bench_outcome outcome;
  harness::bench_job job = request.job;
  // A reference's process started ahead and not taken (a failed build, a kernel that failed
  // before the reference was needed) ends with this run.
  struct prestart_end {
    measuring_worker& worker;
    ~prestart_end() { worker.drop_prestarted(); }
  } prestarted{worker};
  phase_clock clock;
  // Made first: a measuring process started ahead is allowed to write its outputs there.
  const auto evidence =
      std::make_shared<private_folder>("kopt-evidence", "the kernel's and the reference's outputs");
  const evidence_folders folders{evidence->path() / "kernel", evidence->path() / "reference"};
  outcome.prepared = prepare_bench(request.target, job, worker, &folders);
  clock.done("preparation");  // planning, checks, the GPU probe, builds (or the compile cache)
  if (outcome.prepared.failed_build) {
    outcome.result.kopt_version = version_string;
    outcome.result.status = harness::run_status::failed;
    outcome.result.reason = "compile failed: " + outcome.prepared.failed_build->result.failure_reason;
    outcome.status = exit_status::kernel_failed;
    return outcome;
  }
  if (outcome.prepared.failed_problem) {
    // The module's setup() made no problem to judge it on (seed blindness): a result all the same.
    outcome.result.kopt_version = version_string;
    outcome.result.status = harness::run_status::failed;
    outcome.result.reason = *outcome.prepared.failed_problem;
    add_provenance(outcome.result, provenance_of(outcome.prepared, job));
    outcome.status = exit_status::kernel_failed;
    outcome.document = to_document(outcome.result);
    return outcome;
  }
  if (request.atol) job.atol = request.atol;
  if (request.rtol) job.rtol = request.rtol;

  if (!request.sanitize.empty()) {
    outcome.sanitizer =
        run_sanitizer_pass(worker, request.sanitize, job, outcome.prepared.device, request.target.timeout_s);
    clock.done("sanitizer_pass");
  }
  std::optional<reference_timing_use> timing_cache;
  if (request.reference_timing_folder) {
    timing_cache.emplace(reference_timing_use{reference_timing_cache(*request.reference_timing_folder),
                                              outcome.prepared.gpus.driver_version});
  }
  bench_result result = !outcome.sanitizer || outcome.sanitizer->status == sanitizer_status::clean
                            ? run_judged(worker, job, outcome.prepared.device, request.target.timeout_s, folders,
                                         request.progress, timing_cache ? &*timing_cache : nullptr)
                            : sanitizer_failure(*outcome.sanitizer);
  result.sanitizer = outcome.sanitizer;
  // Both sides' kept outputs (gigabytes for a large output) are freed before the answer, or in
  // the warm worker right after it.
  clock.done("judged_run");
  after_the_answer([evidence] { evidence->remove_now(); });
  clock.done("removing_evidence");
  // run_judged's own steps say where "judged_run" went: the parent's steps are the rest, in order.
  phase_seconds steps;
  for (const auto& [name, seconds] : clock.phases()) {
    if (name != "judged_run") {
      steps.emplace_back(name, seconds);
    } else {
      steps.insert(steps.end(), result.phases_s.steps.begin(), result.phases_s.steps.end());
    }
  }
  result.phases_s.steps = std::move(steps);
  add_provenance(result, provenance_of(outcome.prepared, job));
  add_precision(result, outcome.prepared, job);
  outcome.result = std::move(result);
  outcome.status = outcome.result.ok() ? exit_status::ok : exit_status::kernel_failed;
  outcome.document = to_document(outcome.result);
  return outcome;
}

}  // namespace kopt::pipeline
