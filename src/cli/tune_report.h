#pragma once
// kopt report on a tune folder (tune_runs/tune_<timestamp>/, with its tune_result.json): the
// page with the convergence chart (report/tune_page.h), the tune's table on the terminal, or
// the tune result as JSON.

#include <filesystem>

#include "cli/terminal.h"

namespace kopt::cli {

// Writes `page` and prints; the exit status (1 when no configuration passed somewhere).
int report_tune_folder(const std::filesystem::path& dir, const std::filesystem::path& page,
                       const output_choice& output);

}  // namespace kopt::cli
