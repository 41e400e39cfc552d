#include "pipeline/child_verdict.h"

#include <optional>

#include <fmt/format.h>

#include "core/document.h"
#include "core/error.h"
#include "core/text.h"

namespace kopt::pipeline {

wrapped_child_run run_child(measuring_worker& worker, const harness::bench_job& job, const env::gpu_device& device,
                            int timeout_s) {
  wrapped_child_run child = worker.run({}, job, device, timeout_s);
  const process_result& run = child.process;
  if (run.exit_code == static_cast<int>(exit_status::usage_or_environment)) {
    std::string message = run.stderr_text;
    if (message.rfind("kopt: error: ", 0) == 0) message = message.substr(13);
    const std::size_t line_end = message.find('\n');
    const std::string detail = line_end == std::string::npos ? "" : message.substr(line_end + 1);
    throw error(std::string(trim(message.substr(0, line_end))), std::string(trim(detail)));
  }
  return child;
}

harness::child_report run_measuring_child(measuring_worker& worker, const harness::bench_job& job,
                                          const env::gpu_device& device, int timeout_s, measuring_side side) {
  return child_verdict(run_child(worker, job, device, timeout_s), timeout_s, side);
}

harness::child_report child_verdict(const wrapped_child_run& child, int timeout_s, measuring_side side,
                                    const char* limit_source) {
  using harness::report_of;
  using harness::run_status;
  const process_result& run = child.process;
  const bool hung = run.timed_out;
  const char* process = side == measuring_side::kernel      ? "the"
                        : side == measuring_side::reference ? "the reference's"
                                                            : "the problem's";
  // What the child wrote, through its checking reader: a report it refuses is never "ok".
  std::optional<harness::child_report> report;
  std::string unreadable;
  if (child.result && !child.forged_result) {
    try {
      report = from_document<harness::child_report>(*child.result);
    } catch (const document_error& e) {
      unreadable = e.headline();
    }
  }
  if (!run.left_running.empty()) {
    // EXPLOITS.md #13, #20, #23: work, or a hand on kopt's files, that outlives the call. The
    // outputs it kept are still compared: a failure among them came first.
    harness::child_report failed = report_of(
        run_status::failed,
        fmt::format("detached process: {} measuring process left {} process{} running after it ended ({}); kopt "
                    "killed {}: a version's work must end with its call",
                    process, run.left_running.size(), run.left_running.size() == 1 ? "" : "es",
                    run.left_running.front(), run.left_running.size() == 1 ? "it" : "them"));
    if (report) failed.evidence = report->evidence;
    return failed;
  }
  if (child.forged_result) {
    // EXPLOITS.md #20: the file is not what kopt's harness wrote.
    return report_of(run_status::failed,
                     fmt::format("forged result: {} measuring process's result does not carry the seal kopt gave that "
                                 "process: something other than kopt's harness wrote it",
                                 process));
  }
  if (run.succeeded() && child.result) {
    if (report) return *report;
    // Sealed, so kopt's harness wrote it: a field it lacks or gets wrong is a kopt version
    // mismatch or a harness bug, never a pass.
    return report_of(run_status::failed,
                     fmt::format("unreadable result: {} measuring process's result does not read as a kopt child "
                                 "report ({}); the kopt that ran it is not this one, or has a bug: reinstall kopt",
                                 process, unreadable));
  }
  // "the kernel did not finish: the measuring process ...", "the reference ...: its ...".
  const char* who = side == measuring_side::kernel ? "the kernel" : side == measuring_side::reference ? "the reference" : "setup()";
  const char* its = side == measuring_side::kernel ? "the" : "its";
  return report_of(hung ? run_status::timed_out : run_status::crashed,
                   hung ? fmt::format("{} did not finish: {} measuring process was killed after {} s ({})", who, its,
                                      timeout_s, limit_source)
                        : fmt::format("{} measuring process died ({}): {}", process, run.describe_end(),
                                      std::string(trim(run.stderr_text))));
}

}  // namespace kopt::pipeline
