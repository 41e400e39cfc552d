#include "report/toolkit_adoption_rows.h"

#include <fmt/format.h>

#include "core/document.h"
#include "core/text.h"

namespace kopt::report {

std::vector<adoption_row> adoption_rows(const run_report& report) {
  std::vector<adoption_row> rows;
  if (!report.adoption) return rows;
  const loop::toolkit_adoption& a = *report.adoption;
  for (const loop::toolkit_iteration_figures& t : a.iterations) {
    adoption_row row;
    row.toolkit_iteration = t.iteration;
    row.toolkit_median_ms = t.median_ms;
    row.toolkit_outcome = t.outcome;
    row.tags = t.tags;
    row.toolkit_best = a.toolkit_best == t.iteration;
    row.judged_as = t.judged_as;
    if (t.judged_as) {
      for (const loop::iteration_record& r : report.manifest.iterations) {
        if (r.iteration != *t.judged_as) continue;
        row.kopt_median_ms = r.median_ms;
        row.kopt_outcome = enum_name(r.outcome);
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string adoption_row_text(const adoption_row& row) {
  std::string toolkit = row.toolkit_median_ms ? fmt::format("{:.4g} ms", *row.toolkit_median_ms) : "no time";
  std::string about = "unverified";
  if (!row.toolkit_outcome.empty()) about += ", " + row.toolkit_outcome;
  if (row.toolkit_best) about += ", its best";
  if (!row.tags.empty()) about += "; tags " + join(row.tags, ", ");
  std::string kopt = "not judged again";
  if (row.judged_as) {
    kopt = fmt::format("judged as v{}: {}", *row.judged_as,
                       row.kopt_median_ms ? fmt::format("{:.4g} ms", *row.kopt_median_ms) : "no time");
    if (!row.kopt_outcome.empty()) kopt += ", " + row.kopt_outcome;
  }
  return fmt::format("toolkit v{} {} ({}) -> {}", row.toolkit_iteration, toolkit, about, kopt);
}

}  // namespace kopt::report
