#pragma once
// report.html: one self-contained page (inline CSS and inline SVG; no script, no font, image or
// style sheet from anywhere, no URL) that shows a run to a person: what was run, the iteration
// table, the median and roofline charts, the best version's diagnosis and the memory's
// conclusions.

#include <string>

#include "report/run_report.h"

namespace kopt::report {

struct page_options {
  std::string link_base = ".";  // the run folder seen from the page's folder
  std::string generated_at;     // ISO 8601, UTC
  std::string kopt_version;
};

// The options of a page this kopt writes now: generated_at and kopt_version filled in.
page_options stamped_page_options();

std::string report_html(const run_report& report, const page_options& options);

}  // namespace kopt::report
