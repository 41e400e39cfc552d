#include "pipeline/bench_pipeline.h"

#include <fmt/format.h>

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

bench_outcome run_bench(const bench_request& request, measuring_worker& worker) {
  if (!request.sanitize.empty()) check_sanitizer_tool(request.sanitize);
  bench_outcome outcome;
  harness::bench_job job = request.job;
  outcome.prepared = prepare_bench(request.target, job, worker);
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
  }
  json result = outcome.sanitizer.is_null() || outcome.sanitizer["status"] == "clean"
                    ? run_judged(worker, job, outcome.prepared.device, request.target.timeout_s, request.progress)
                    : sanitizer_failure(outcome.sanitizer);
  if (!outcome.sanitizer.is_null()) result["sanitizer"] = outcome.sanitizer;
  add_provenance(result, outcome.prepared, job);
  outcome.result = bench_result_from_child(result);
  outcome.result.backend = std::string(kernel::to_string(outcome.prepared.plan.backend));
  outcome.status = outcome.result.ok() ? exit_status::ok : exit_status::kernel_failed;
  outcome.document = to_json(outcome.result);
  return outcome;
}

}  // namespace kopt::pipeline
