#include "profile/ncu_outcome.h"

#include <fmt/format.h>

#include "core/text.h"
#include "tools/ncu_permission.h"

namespace kopt::profile {
namespace {

bool contains(const std::string& text, std::string_view what) { return text.find(what) != std::string::npos; }

// The child's own environment error (`kopt: error: ...`, printed by its main before exit 2).
std::string child_error_headline(const std::string& output) {
  constexpr std::string_view prefix = "kopt: error: ";
  for (const std::string& line : split_lines(output)) {
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  }
  return {};
}

std::string first_line_of(const std::string& text) { return text.substr(0, text.find('\n')); }

capture_outcome make(capture_verdict verdict, std::string headline, std::string detail = {}) {
  return {verdict, std::move(headline), std::move(detail)};
}

}  // namespace

std::string problem_lines(const std::string& output, std::size_t limit) {
  std::vector<std::string> lines;
  for (const std::string& line : split_lines(output)) {
    if (lines.size() == limit) break;
    if (contains(line, "==ERROR==") || contains(line, "==WARNING==") || line.rfind("kopt: ", 0) == 0) {
      lines.emplace_back(trim(line));
    }
  }
  return join(lines, "\n");
}

capture_outcome nothing_captured(const ncu_capture_options& options, int profile_calls, const std::string& detail) {
  std::string why;
  if (!options.kernel_name_regex.empty()) {
    why = fmt::format("--kernel-name-regex '{}' matched no kernel that solve() launched", options.kernel_name_regex);
  } else if (options.launch_skip.value_or(0) > 0) {
    why = fmt::format("--launch-skip {} skipped every launch of the {} solve() call(s) in the profiler window; "
                      "lower it or raise --profile-calls",
                      *options.launch_skip, profile_calls);
  } else {
    why = "solve() launched no kernel inside the profiler window (does it return early for these dimensions?)";
  }
  return make(capture_verdict::nothing_captured, "ncu captured no kernel launch: " + why, detail);
}

capture_outcome judge_capture(const capture_facts& facts, const ncu_capture_options& options) {
  const std::string problems = problem_lines(facts.ncu_output);
  if (tools::ncu_reports_counter_permission_error(facts.ncu_output)) {
    return make(capture_verdict::environment_error,
                fmt::format("ncu may not read this GPU's performance counters (ERR_NVGPUCTRPERM): {}",
                            tools::ncu_counter_permission_fix),
                problems);
  }
  if (!facts.ncu_started) {
    return make(capture_verdict::environment_error, "could not start ncu: " + facts.ncu_start_error + " (check --ncu-bin)");
  }
  if (const std::string child_error = child_error_headline(facts.ncu_output); !child_error.empty()) {
    return make(capture_verdict::environment_error, child_error, problems);
  }
  if (facts.ncu_timed_out) {
    return make(capture_verdict::kernel_failed,
                fmt::format("the profiled run did not finish within {} s and was killed (--timeout; ncu replays "
                            "each kernel dozens of times with --set full, so a slow kernel needs a larger limit)",
                            facts.timeout_s),
                problems);
  }
  if (!facts.child_wrote_result) {
    // ncu says "Connected to process" once the program runs under it; without that line ncu
    // itself gave up first (an unknown --set, --section or metric, a broken install).
    if (!contains(facts.ncu_output, "Connected to process")) {
      const std::string first = first_line_of(problems);
      return make(capture_verdict::environment_error,
                  fmt::format("ncu failed before running the kernel ({}){}", facts.ncu_end,
                              first.empty() ? std::string() : ": " + first),
                  problems.empty() ? std::string(trim(facts.ncu_output)) : problems);
    }
    return make(capture_verdict::kernel_failed,
                fmt::format("the kernel's process died under ncu ({})", facts.ncu_end), problems);
  }
  if (facts.child_status != "ok") {
    return make(capture_verdict::kernel_failed,
                fmt::format("the kernel failed under the profiler ({}): {}", facts.child_status, facts.child_reason),
                problems);
  }
  if (!facts.report_written) {
    if (facts.ncu_succeeded || contains(facts.ncu_output, "No kernels were profiled")) {
      return nothing_captured(options, facts.profile_calls, problems);
    }
    return make(capture_verdict::kernel_failed, fmt::format("ncu could not profile the kernel ({})", facts.ncu_end),
                problems);
  }
  if (!facts.ncu_succeeded) {
    const std::string first = first_line_of(problems);
    return make(capture_verdict::kernel_failed,
                fmt::format("ncu reported a failure while profiling ({}){}", facts.ncu_end,
                            first.empty() ? std::string() : ": " + first),
                problems);
  }
  return {};
}

}  // namespace kopt::profile
