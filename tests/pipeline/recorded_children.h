#pragma once
// Measuring children for pipelines run through a recorded worker: each answers with the result
// a real child gave on the H200 (tests/data/pipeline) and leaves outputs where a real one
// leaves them, so the parent's verdict runs on real files.

#include <cstring>
#include <vector>

#include "core/json_io.h"
#include "harness/evidence_files.h"
#include "harness/job_problem.h"
#include "pipeline/recorded_worker.h"
#include "support/kopt_process.h"

namespace kopt::pipeline {

inline wrapped_child_run child_that_wrote(const json& result) {
  wrapped_child_run run;
  run.process.started = true;
  run.process.exit_code = 0;
  run.result = result;
  return run;
}

inline json recorded(const char* name) { return read_json_file(testing::source_dir() / "tests/data/pipeline" / name); }

// Every output element of every kept key set to `value` in the side's evidence folder.
inline void leave_outputs(const harness::bench_job& job, float value) {
  if (job.evidence_dir.empty()) return;  // nothing to keep: no reference (the sanitizer pass, say)
  const harness::job_problem problem(job);
  const kernel::kernel_plan& plan = problem.plan();
  for (const harness::evidence_key& key : job.evidence) {
    harness::buffer_contents outputs(plan.buffers.size());
    for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
      if (plan.buffers[i].role == kernel::buffer_role::in) continue;
      std::vector<float> values(static_cast<std::size_t>(plan.buffers[i].elements), value);
      outputs[i].resize(values.size() * sizeof(float));
      std::memcpy(outputs[i].data(), values.data(), outputs[i].size());
    }
    harness::write_evidence(job.evidence_dir, key, plan, outputs);
  }
}

// The kernel's child as recorded (child_result_ok.json, its keys), then the reference's; the
// kernel leaves `kernel_value` everywhere except in call `wrong_call`'s outputs (when not 0).
inline recorded_worker::responder two_children(float kernel_value, std::uint64_t wrong_call = 0) {
  return [=](const harness::bench_job& job) {
    if (harness::is_reference_role(job)) {
      leave_outputs(job, 1.0f);
      return child_that_wrote(recorded("reference_child_result_ok.json"));
    }
    json result = recorded("child_result_ok.json");
    harness::bench_job kept = job;
    kept.evidence = harness::evidence_keys_from_json(result["evidence"]);
    leave_outputs(kept, kernel_value);
    if (wrong_call != 0) {
      kept.evidence = {harness::evidence_key{harness::evidence_key::kind::call, wrong_call, "timed"}};
      leave_outputs(kept, 2.0f);
    }
    return child_that_wrote(result);
  };
}

}  // namespace kopt::pipeline
