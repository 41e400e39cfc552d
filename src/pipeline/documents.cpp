#include "pipeline/documents.h"

#include "core/document_schema.h"
#include "harness/bench_job.h"
#include "harness/block_channel.h"
#include "harness/child_report.h"
#include "harness/runner_documents.h"
#include "measure/timing_document.h"
#include "pipeline/bench_result.h"
#include "pipeline/comparison_summary.h"
#include "pipeline/reference_timing_cache.h"

namespace kopt::pipeline {

std::vector<document_schema_entry> exchanged_document_schemas() {
  const auto entry = [](const char* name, json schema) {
    return document_schema_entry{name, std::move(schema)};
  };
  return {
      entry("announced_tolerances",
            json_schema_of<harness::tolerance_pair>("a reference module's tolerances")),
      entry("benchmark_result", json_schema_of<bench_result>("kopt bench's result")),
      entry("block_reply", json_schema_of<harness::block_reply>("one block of a comparison in turns")),
      entry("call_failure",
            json_schema_of<harness::call_failure>("a call of the code under test that failed")),
      entry("child_report", json_schema_of<harness::child_report>("a measuring process's report")),
      entry("comparison", json_schema_of<turns_record>("a comparison in turns: its outcome, how it was "
                                                       "measured, every round, block and sample")),
      entry("harness_job", json_schema_of<harness::bench_job>("a measuring process's job")),
      entry("problem_answer", json_schema_of<harness::problem_answer>("a Triton problem step's answer")),
      entry("reference_request",
            json_schema_of<harness::reference_request>("a request to the Python reference "
                                                       "runner")),
      entry("reference_result",
            json_schema_of<harness::reference_runner_result>("the Python reference runner's "
                                                             "result")),
      entry("reference_timing", json_schema_of<reference_timing_entry>("a kept reference timing")),
      entry("sampled_timing", json_schema_of<harness::sampled_timing>("kopt_timing_sample's answer")),
      entry("timing", json_schema_of<measure::timing_document>("a timing document")),
      entry("timing_options", json_schema_of<harness::timing_options>("kopt_timing_sample's options")),
      entry("triton_runner_facts",
            json_schema_of<harness::triton_runner_facts>("what a Triton kernel's runner "
                                                         "reports of itself")),
  };
}

}  // namespace kopt::pipeline
