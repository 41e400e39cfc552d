#include "profile/ncu_command.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"

namespace kopt::profile {
namespace {

// ncu takes one comma-separated --metrics list; users may give either form.
std::vector<std::string> metric_list(const ncu_capture_options& options) {
  std::vector<std::string> metrics = analysis_extra_metrics();
  for (const std::string& given : options.metrics) {
    std::size_t start = 0;
    while (start <= given.size()) {
      const std::size_t comma = std::min(given.find(',', start), given.size());
      const std::string name(trim(std::string_view(given).substr(start, comma - start)));
      if (!name.empty() && std::find(metrics.begin(), metrics.end(), name) == metrics.end()) metrics.push_back(name);
      start = comma + 1;
    }
  }
  return metrics;
}

bool needs_shell_quoting(const std::string& word) {
  if (word.empty()) return true;
  return std::any_of(word.begin(), word.end(), [](char c) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    return !plain && std::string_view("-_./:=,+@%").find(c) == std::string_view::npos;
  });
}

}  // namespace

const std::vector<std::string>& analysis_extra_metrics() {
  static const std::vector<std::string> metrics = [] {
    std::vector<std::string> m = {"dram__throughput.avg.pct_of_peak_sustained_elapsed"};
    for (const char* op : {"fadd", "fmul", "ffma", "dadd", "dmul", "dfma", "hfma"}) {
      m.push_back(fmt::format("smsp__sass_thread_inst_executed_op_{}_pred_on.sum", op));
    }
    // Names the memory unit behind the memory speed-of-light value (NCU.md).
    m.emplace_back("breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
    return m;
  }();
  return metrics;
}

std::string kernel_name_regex_problem(const std::string& given) {
  // A kernel name pattern is short; a long one would only make the regex compiler recurse deep.
  constexpr std::size_t longest = 1000;
  const std::string pattern = given.rfind("regex:", 0) == 0 ? given.substr(6) : given;
  if (pattern.size() > longest) {
    return fmt::format("a pattern of {} characters: give one of kernel names of at most {}", pattern.size(), longest);
  }
  try {
    const std::regex compiled(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return fmt::format("\"{}\" is not a regular expression ({}): give a pattern such as 'softmax' or 'gemm|matmul'",
                       given, e.what());
  }
  return "";
}

void check_capture_options(const ncu_capture_options& options) {
  if (const std::string problem = kernel_name_regex_problem(options.kernel_name_regex); !problem.empty()) {
    throw error("--kernel-name-regex " + problem);
  }
  if (trim(options.set).empty()) throw error("--set needs a section set name (ncu --list-sets shows them)");
  for (const std::string& section : options.sections) {
    if (trim(section).empty()) throw error("--section needs a section name (ncu --list-sections shows them)");
  }
  if (options.launch_skip && *options.launch_skip < 0) {
    throw error(fmt::format("--launch-skip {}: give a count of launches, 0 or more", *options.launch_skip));
  }
  if (options.launch_count && *options.launch_count < 1) {
    throw error(fmt::format("--launch-count {}: give a count of launches, 1 or more", *options.launch_count));
  }
}

std::vector<std::string> capture_argv(const std::filesystem::path& ncu, const ncu_capture_options& options,
                                      const std::filesystem::path& report_base) {
  // Only launches between cuProfilerStart/Stop (kopt's window) are profiled, and the clocks
  // are left as they are.
  std::vector<std::string> argv = {ncu.string(), "--profile-from-start", "off", "--clock-control", "none",
                                   "--set",      options.set};
  for (const std::string& section : options.sections) argv.insert(argv.end(), {"--section", section});
  // Source-level counters point at lines: the kernel is built with -lineinfo, and the source
  // goes into the report so that it can be read elsewhere.
  argv.insert(argv.end(), {"--import-source", "yes", "--metrics", join(metric_list(options), ",")});
  if (!options.kernel_name_regex.empty()) {
    std::string pattern = options.kernel_name_regex;
    if (pattern.rfind("regex:", 0) == 0) pattern = pattern.substr(6);
    argv.insert(argv.end(), {"--kernel-name", "regex:" + pattern});
  }
  if (options.launch_skip) argv.insert(argv.end(), {"--launch-skip", std::to_string(*options.launch_skip)});
  if (options.launch_count) argv.insert(argv.end(), {"--launch-count", std::to_string(*options.launch_count)});
  argv.insert(argv.end(), {"-f", "-o", report_base.string()});
  return argv;
}

int profile_calls_for(const ncu_capture_options& options, std::optional<int> requested_calls) {
  if (requested_calls) return *requested_calls;
  if (!options.launch_skip && !options.launch_count) return 1;
  return std::max(1, options.launch_skip.value_or(0) + options.launch_count.value_or(1));
}

std::vector<std::string> export_argv(const std::filesystem::path& ncu, const std::filesystem::path& report,
                                     export_page page) {
  std::vector<std::string> argv = {ncu.string(), "-i", report.string(), "--csv", "--page"};
  switch (page) {
    case export_page::raw:
      // Base units (ns, bytes) rather than ncu's auto-scaled us / Mbyte.
      argv.insert(argv.end(), {"raw", "--print-units", "base"});
      break;
    case export_page::details:
      argv.insert(argv.end(), {"details", "--print-details", "all"});
      break;
    case export_page::source:
      // Only views with SASS carry the per-line counters; cuda,sass puts each source line's
      // counters (summed over its instructions) above the instructions themselves.
      argv.insert(argv.end(), {"source", "--print-source", "cuda,sass"});
      break;
  }
  return argv;
}

bool printed_a_page(const process_result& run) {
  return run.succeeded() && !trim(run.stdout_text).empty() && run.stdout_text.find("==ERROR==") == std::string::npos;
}

std::vector<std::string> text_page_argv(const std::filesystem::path& ncu, const std::filesystem::path& report,
                                        text_page page) {
  std::vector<std::string> argv = {ncu.string(), "-i", report.string()};
  if (page == text_page::summary) {
    argv.insert(argv.end(), {"--print-summary", "per-kernel"});
  } else {
    argv.insert(argv.end(), {"--page", "details"});
  }
  return argv;
}

std::string shell_command_line(const std::vector<std::string>& argv) {
  std::vector<std::string> words;
  words.reserve(argv.size());
  for (const std::string& word : argv) {
    if (!needs_shell_quoting(word)) {
      words.push_back(word);
      continue;
    }
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    words.push_back(quoted + "'");
  }
  return join(words, " ");
}

}  // namespace kopt::profile
