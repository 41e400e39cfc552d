#include "pipeline/bench_pipeline.h"

#include <memory>

#include <fmt/format.h>

#include "core/after_the_answer.h"
#include "core/phase_clock.h"
#include "core/private_folder.h"

#include "pipeline/judged_run.h"
#include "pipeline/sanitizer_pass.h"

namespace kopt::pipeline {
namespace {

// A sanitizer pass that found errors ends the run before timing: the result says why.
json sanitizer_failure(const json& pass) {
  std::string first;
  for (const auto& line : pass["report"]) {
    const std::string text = line.get<std::string>();
    if (!text.empty() && text.front() != ' ' && text.rfind("Program hit", 0) != 0) {
      first = text;
      break;
    }
  }
  const std::string reason =
      pass["status"] == "errors"
          ? fmt::format("compute-sanitizer {} found {} error(s){}", pass["tool"].get<std::string>(),
                        pass["errors"].get<int>(), first.empty() ? "" : ": " + first)
          : fmt::format("the kernel failed under compute-sanitizer {}: {}", pass["tool"].get<std::string>(),
                        pass.value("reason", std::string("see its report")));
  return json{{"status", "failed"}, {"reason", reason}, {"correctness", json{{"checked", false}, {"passed", nullptr}}}};
}

}  // namespace

void check_sampling_times(const harness::bench_job& job) {
  if (job.min_seconds < 0 || job.min_seconds > job.max_seconds) {
    throw error(
        fmt::format("sampling's minimum time ({} s, --min-seconds) is not between 0 and its limit ({} s, "
                    "--max-seconds): give a minimum at or below the limit",
                    job.min_seconds, job.max_seconds));
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
    outcome.result.status = "failed";
    outcome.result.reason = "compile failed: " + outcome.prepared.failed_build->result.failure_reason;
    outcome.status = exit_status::kernel_failed;
    return outcome;
  }
  if (outcome.prepared.failed_problem) {
    // The module's setup() made no problem to judge it on (seed blindness): a result all the same.
    json failed{{"status", "failed"},
                {"reason", *outcome.prepared.failed_problem},
                {"correctness", json{{"checked", false}, {"passed", nullptr}}}};
    add_provenance(failed, outcome.prepared, job);
    outcome.result = bench_result_from_child(failed);
    outcome.result.backend = std::string(kernel::to_string(outcome.prepared.plan.backend));
    outcome.status = exit_status::kernel_failed;
    outcome.document = to_json(outcome.result);
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
  json result = outcome.sanitizer.is_null() || outcome.sanitizer["status"] == "clean"
                    ? run_judged(worker, job, outcome.prepared.device, request.target.timeout_s, folders,
                                 request.progress, timing_cache ? &*timing_cache : nullptr)
                    : sanitizer_failure(outcome.sanitizer);
  if (!outcome.sanitizer.is_null()) result["sanitizer"] = outcome.sanitizer;
  // Both sides' kept outputs (gigabytes for a large output) are freed before the answer, or in
  // the warm worker right after it.
  clock.done("judged_run");
  after_the_answer([evidence] { evidence->remove_now(); });
  clock.done("removing_evidence");
  if (!result.contains("phases_s") || !result["phases_s"].is_object()) result["phases_s"] = json::object();
  json own_phases = clock.phases();
  own_phases.erase("judged_run");  // run_judged's own phases say where that went
  result["phases_s"].update(own_phases);
  add_provenance(result, outcome.prepared, job);
  outcome.result = bench_result_from_child(result);
  outcome.result.backend = std::string(kernel::to_string(outcome.prepared.plan.backend));
  outcome.status = outcome.result.ok() ? exit_status::ok : exit_status::kernel_failed;
  outcome.document = to_json(outcome.result);
  return outcome;
}

}  // namespace kopt::pipeline
