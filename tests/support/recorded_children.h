#pragma once
// Measuring children for pipelines run through a recorded worker: each answers with a child
// report of the shape a real child gives (the figures of a 16M-element vector add on an H200)
// and leaves outputs where a real one leaves them, so the parent's verdict runs on real files.
// The report crosses as JSON, through the parent's checking reader, as a real child's does.

#include <cstring>
#include <vector>

#include "core/json_io.h"
#include "harness/child_report.h"
#include "harness/evidence_files.h"
#include "harness/job_problem.h"
#include "pipeline/recorded_worker.h"
#include "support/kopt_process.h"
#include "support/timings.h"

namespace kopt::pipeline {

inline wrapped_child_run child_that_wrote(const json& result) {
  wrapped_child_run run;
  run.process.started = true;
  run.process.exit_code = 0;
  run.result = result;
  return run;
}

inline wrapped_child_run child_that_wrote(const harness::child_report& report) {
  return child_that_wrote(to_document(report));
}

// The kernel's process of a passing run: timed (median 0.06122 ms over 82 samples), its outputs
// kept for the two seeds before timing, timed call 17 and the seed after timing.
inline harness::child_report kernel_report_ok() {
  harness::child_report r = harness::report_of(harness::run_status::ok);
  r.problem_source = "reference";
  r.protocol = "cold: L2 flushed before every sample by reading 120.00 MiB";
  r.kernel = testing::timing_around(0.06122, 82);
  r.timed_call_checks = harness::timed_call_summary{92, 10, {17}, 10, 0, "1 in 32"};
  r.evidence = {{harness::evidence_kind::seed, 0, "before timing"},
                {harness::evidence_kind::seed, 1, "before timing"},
                {harness::evidence_kind::call, 17, "timed"},
                {harness::evidence_kind::seed, 1000003, "after timing"}};
  r.phases_s = {{"gpu_context_and_loading", 0.12}, {"validation", 0.05}, {"timing", 0.2}, {"after_timing", 0.01}};
  return r;
}

// The reference's process of that run: timed (median 0.06130 ms over 80 samples).
inline harness::child_report reference_report_ok() {
  harness::child_report r = harness::report_of(harness::run_status::ok);
  r.reference = testing::timing_around(0.06130, 80);
  r.phases_s = {{"gpu_context_and_planning", 0.11}, {"outputs", 0.02}, {"timing", 0.2}};
  return r;
}

// Every output element of every kept key set to `value` in the side's evidence folder.
inline void leave_outputs(const harness::bench_job& job, float value) {
  if (kopt::harness::evidence_dir_of(job).empty())
    return;  // nothing to keep: no reference (the sanitizer pass, say)
  const harness::job_problem problem(job);
  const kernel::kernel_plan& plan = problem.plan();
  for (const harness::evidence_key& key : job.validation->evidence) {
    harness::buffer_contents outputs(plan.buffers.size());
    for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
      if (plan.buffers[i].role == kernel::buffer_role::in) continue;
      std::vector<float> values(static_cast<std::size_t>(plan.buffers[i].elements), value);
      outputs[i].resize(values.size() * sizeof(float));
      std::memcpy(outputs[i].data(), values.data(), outputs[i].size());
    }
    harness::write_evidence(kopt::harness::evidence_dir_of(job), key, plan, outputs);
  }
}

// The kernel's child as recorded (child_result_ok.json, its keys), then the reference's; the
// kernel leaves `kernel_value` everywhere except in call `wrong_call`'s outputs (when not 0).
inline recorded_worker::responder two_children(float kernel_value, std::uint64_t wrong_call = 0) {
  return [=](const harness::bench_job& job) {
    if (job.kind == harness::job_kind::reference) {
      leave_outputs(job, 1.0f);
      return child_that_wrote(reference_report_ok());
    }
    const harness::child_report result = kernel_report_ok();
    harness::bench_job kept = job;
    kept.validation->evidence = result.evidence;
    leave_outputs(kept, kernel_value);
    if (wrong_call != 0) {
      kept.validation->evidence = {harness::evidence_key{harness::evidence_kind::call, wrong_call, "timed"}};
      leave_outputs(kept, 2.0f);
    }
    return child_that_wrote(result);
  };
}

}  // namespace kopt::pipeline
