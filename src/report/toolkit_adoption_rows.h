#pragma once
// A run folder adopted from the Python toolkit, as the report shows it: each of the toolkit's
// versions with the figure the toolkit recorded (never checked by kopt, so marked unverified)
// beside the figure kopt measured when it judged that version again, where it did. The terminal
// and the page print these rows; the JSON carries the adoption record itself.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/run_report.h"

namespace kopt::report {

struct adoption_row {
  std::int64_t toolkit_iteration = 0;
  std::optional<double> toolkit_median_ms;  // the toolkit's own figure: unverified
  std::string toolkit_outcome;
  std::vector<std::string> tags;
  bool toolkit_best = false;
  std::optional<std::int64_t> judged_as;    // the kopt iteration that judged it again
  std::optional<double> kopt_median_ms;     // what kopt measured there
  std::string kopt_outcome;
};

// Empty for a run that was not adopted.
std::vector<adoption_row> adoption_rows(const run_report& report);

// One line for a row: "toolkit v3 0.05 ms (unverified, positive; tags a, b) -> judged as v1: 0.061 ms, positive".
std::string adoption_row_text(const adoption_row& row);

}  // namespace kopt::report
