#pragma once
// Running a measuring child through the worker, and how a child that has ended becomes its
// report: its own checked report when it ended well, a failed one naming why when it did not
// (a death, a hang, a process left running, a result without its seal or one its checking
// reader refuses). An environment error in the child is kopt's error, not the kernel's.

#include <string>

#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "harness/child_report.h"
#include "pipeline/measuring_worker.h"

namespace kopt::pipeline {

// Which side a measuring child runs, for the messages when it dies or hangs.
enum class measuring_side { kernel, reference, problem };

// Runs a measuring child on `job` as it is. An environment error in the child (exit 2) is
// rethrown as kopt::error; anything else is the caller's to judge.
wrapped_child_run run_child(measuring_worker& worker, const harness::bench_job& job, const env::gpu_device& device,
                            int timeout_s);

// run_child judged by child_verdict: a child that crashes or hangs becomes a report with status
// crashed / timed_out.
harness::child_report run_measuring_child(measuring_worker& worker, const harness::bench_job& job,
                                          const env::gpu_device& device, int timeout_s,
                                          measuring_side side = measuring_side::kernel);

// How a measuring child that has ended is judged (run_measuring_child after its check for an
// environment problem, and a comparison's processes as they close): a process it left running,
// a result without its seal or that its checking reader refuses, a death or a hang (after
// `timeout_s`, set by `limit_source`) become a failed report; otherwise its own report.
harness::child_report child_verdict(const wrapped_child_run& child, int timeout_s,
                                    measuring_side side = measuring_side::kernel,
                                    const char* limit_source = "--timeout");

}  // namespace kopt::pipeline
