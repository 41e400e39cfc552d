#pragma once
// The Nsight Compute command lines kopt profile runs, as pure functions of its options: the
// one capture pass over the measuring child, and the exports of the report to CSV.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/process_request.h"

namespace kopt::profile {

struct ncu_capture_options {
  std::string set = "full";                // ncu --set; the targeted sections are part of full
  std::vector<std::string> sections;       // added to the set (ncu --section, repeatable)
  std::vector<std::string> metrics;        // added to kopt's extra metrics (ncu --metrics)
  std::string kernel_name_regex;           // "": every kernel in the profiler window
  std::optional<int> launch_skip;          // counted inside kopt's profiler window
  std::optional<int> launch_count;
};

// Metrics the analysis needs that --set full lacks (../shared/NCU.md), in this order.
const std::vector<std::string>& analysis_extra_metrics();

// Throws kopt::error for options ncu would reject or that cannot select anything (a
// --kernel-name-regex that is not a regular expression among them).
void check_capture_options(const ncu_capture_options& options);

// What is wrong with a --kernel-name-regex (with or without ncu's "regex:" prefix), "" when
// nothing: it must be a regular expression, refused before ncu runs ("\"([\" is not a regular
// expression (...): give a pattern such as ...").
std::string kernel_name_regex_problem(const std::string& pattern);

// The ncu part of the capture: `ncu --profile-from-start off --clock-control none --set ...
// -f -o REPORT_BASE` (ncu appends .ncu-rep); the profiled program's argv follows it.
std::vector<std::string> capture_argv(const std::filesystem::path& ncu, const ncu_capture_options& options,
                                      const std::filesystem::path& report_base);

// How many solve() calls the profiler window must hold: --profile-calls when given, else
// enough for --launch-skip + --launch-count to find their launches (every call launches at
// least one kernel), else one.
int profile_calls_for(const ncu_capture_options& options, std::optional<int> requested_calls);

enum class export_page { raw, details, source };

// `ncu -i REPORT --csv --page ...`: raw in base units, details with every rule, source as CUDA
// lines with their SASS and per-line counters (cuda,sass).
std::vector<std::string> export_argv(const std::filesystem::path& ncu, const std::filesystem::path& report,
                                     export_page page);

// The report as ncu prints it for a person, as the Python toolkit kept it beside the CSV files:
// the summary (one block per kernel: `--print-summary per-kernel`) and the details page (every
// section, as text).
enum class text_page { summary, details };

// Whether `ncu -i` printed a page: it succeeded, printed something, and no ==ERROR== (an optional
// page ncu cannot give is left absent, never written as its error).
bool printed_a_page(const process_result& run);
std::vector<std::string> text_page_argv(const std::filesystem::path& ncu, const std::filesystem::path& report,
                                        text_page page);

// One line a POSIX shell would run as `argv` (words quoted only where they need it).
std::string shell_command_line(const std::vector<std::string>& argv);

}  // namespace kopt::profile
