#pragma once
// A tunable kernel and the measuring children of its configurations, for kopt tune run through a
// recorded worker (the command and the MCP tool).

#include <map>
#include <string>
#include <vector>

#include "core/files.h"
#include "pipeline/recorded_worker.h"
#include "support/recorded_children.h"
#include "support/timings.h"

namespace kopt::pipeline {

// The example's vector add with two tune macros: five configurations pass the restriction.
inline std::string tunable_vector_add(const std::string& example_file) {
  return "// kopt: tune(BLOCK, 64, 128, 256) tune(VEC, 1, 2) restrict(BLOCK * VEC <= 256)\n"
         "#ifndef BLOCK\n#define BLOCK 128\n#endif\n#ifndef VEC\n#define VEC 1\n#endif\n" +
         read_text_file(example_file, "example");
}

// Medians [us] of tunable_vector_add's passing configurations: BLOCK=128 VEC=2 the fastest,
// BLOCK=64 VEC=2 the runner-up.
inline std::map<std::string, double> tunable_vector_add_medians() {
  return {{"BLOCK=64 VEC=2", 16.0}, {"BLOCK=128 VEC=1", 20.0}, {"BLOCK=128 VEC=2", 15.0}, {"BLOCK=256 VEC=1", 21.0}};
}

inline std::string configuration_of(const harness::bench_job& job) {
  std::string text;
  for (const std::string& d : job.defines) text += (text.empty() ? "" : " ") + d;
  return text;
}

// Children timed as `median_us` says for their configuration; "BLOCK=64 VEC=1" leaves wrong
// outputs. Blocks in turns: the file holding `faster_in_turns`'s values is 3 % faster.
inline recorded_worker::responder by_configuration(const std::map<std::string, double>& median_us) {
  return [=](const harness::bench_job& job) {
    const bool wrong = configuration_of(job) == "BLOCK=64 VEC=1";
    wrapped_child_run run = two_children(wrong ? 3.0f : 1.0f)(job);
    if (job.kind == harness::job_kind::kernel && median_us.count(configuration_of(job)) > 0) {
      harness::child_report report = kernel_report_ok();
      report.kernel = testing::timing_around(median_us.at(configuration_of(job)) / 1000, 82);
      run.result = to_document(report);
    }
    return run;
  };
}

inline void time_turns(recorded_worker& worker, const std::string& faster_in_turns) {
  worker.respond_to_blocks([faster_in_turns](const harness::bench_job& job, int calls) {
    const std::string source = read_text_file(job.kernel_source, "tuned kernel");
    const double ms =
        source.find("// kopt tune: " + faster_in_turns + "\n") != std::string::npos ? 0.0194 : 0.020;
    return timing_block{testing::timing_of_samples(std::vector<double>(static_cast<std::size_t>(calls), ms)),
                        "", ""};
  });
}

}  // namespace kopt::pipeline
