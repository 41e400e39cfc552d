#pragma once
// A tune folder's report.html (kopt report TUNE_DIR): what was tuned, the winner and how it was
// chosen, the convergence chart and the table of every configuration, for the dimensions given
// and each extra shape, then which configuration wins where. Self-contained as the run report
// is: inline style and SVG, nothing from anywhere.

#include <filesystem>
#include <string>

#include "report/html_page.h"
#include "tune/tune_result.h"

namespace kopt::report {

std::string tune_report_html(const tune::tune_result& result, const page_options& options);

// Whether `dir` is a tune folder: it holds tune_result.json.
bool is_tune_folder(const std::filesystem::path& dir);

// Reads `dir`'s tune_result.json (throws kopt::error naming what is wrong with it), writes its
// page to `page`, and returns the result: what kopt report and the MCP report tool both do.
tune::tune_result write_tune_report(const std::filesystem::path& dir, const std::filesystem::path& page,
                                    const page_options& options);

}  // namespace kopt::report
