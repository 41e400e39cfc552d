#include "pipeline/sanitizer_pass.h"

#include <array>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "pipeline/child_jobs.h"
#include "pipeline/child_verdict.h"
#include "pipeline/measuring_child.h"
#include "tools/toolchain.h"

namespace kopt::pipeline {
namespace {

constexpr std::array<const char*, 4> tools = {"memcheck", "racecheck", "initcheck", "synccheck"};
constexpr std::size_t kept_report_lines = 40;
// compute-sanitizer's exit status when it found errors (--error-exitcode), apart from the
// child's own statuses.
constexpr int errors_found_status = 86;

}  // namespace

void check_sanitizer_tool(const std::string& tool) {
  for (const char* t : tools) {
    if (tool == t) return;
  }
  throw error(fmt::format("--sanitize {}: not a compute-sanitizer tool; use memcheck, racecheck, initcheck or synccheck",
                          tool));
}

sanitizer_findings parse_sanitizer_output(const std::string& output) {
  sanitizer_findings findings;
  findings.errors = -1;
  // "ERROR SUMMARY: 3 errors" (memcheck, initcheck, synccheck); racecheck prints
  // "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)".
  const std::regex error_summary(R"(ERROR SUMMARY: ([0-9,]+) error)");
  const std::regex race_summary(R"(RACECHECK SUMMARY: .*\(([0-9,]+) errors?,)");
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("=========", 0) != 0) continue;
    std::string text(trim(line.substr(9)));
    std::smatch m;
    if (std::regex_search(text, m, error_summary) || std::regex_search(text, m, race_summary)) {
      std::string digits = m[1].str();
      std::erase(digits, ',');
      findings.errors = std::max(findings.errors, std::stoi(digits));
      continue;
    }
    if (text.empty() || text == "COMPUTE-SANITIZER") continue;
    if (findings.report.size() < kept_report_lines) findings.report.push_back(text);
  }
  return findings;
}

sanitizer_record run_sanitizer_pass(measuring_worker& worker, const std::string& tool, harness::bench_job job,
                       const env::gpu_device& device, int timeout_s) {
  const tools::located_tool sanitizer = tools::require_compute_sanitizer();
  // The kernel alone, once: one seed, no timing, the reference never run. Its source stays named,
  // as for the judged run's kernel job: a Triton kernel's problem may be its reference's setup().
  job = kernel_job(validation_only(job, 1), "");
  const std::vector<std::string> wrapper = {sanitizer.path.string(), "--tool", tool, "--error-exitcode",
                                            std::to_string(errors_found_status), "--print-limit", "20"};
  const wrapped_child_run run = worker.run(wrapper, job, device, timeout_s);
  const sanitizer_findings findings = parse_sanitizer_output(run.process.stdout_text + run.process.stderr_text);
  std::vector<std::string> command = wrapper;
  const std::vector<std::string> measuring = measuring_child_argv(job, "JOB", "RESULT");
  command.insert(command.end(), measuring.begin(), measuring.end());
  sanitizer_record pass{tool, command, sanitizer.version, findings.errors, findings.report};
  const harness::child_report report = child_verdict(run, timeout_s);
  if (findings.errors > 0 || run.process.exit_code == errors_found_status) {
    pass.status = sanitizer_status::errors;
  } else if (!report.ok()) {
    pass.status = sanitizer_status::failed;
    pass.reason = report.reason;
  } else {
    pass.status = sanitizer_status::clean;
  }
  return pass;
}

}  // namespace kopt::pipeline
