#pragma once
// Exporting a captured report to the CSV files kopt analyze reads: the raw page (every metric,
// base units), the details page (ncu's rule advice) and, where this ncu can, the source page.
// The pages for people are profile/text_pages.h's.

#include <chrono>
#include <filesystem>
#include <string>

namespace kopt::profile {

struct export_files {
  std::filesystem::path raw_csv;       // required
  std::filesystem::path details_csv;   // required
  std::filesystem::path source_csv;    // optional: left absent when ncu cannot export it
};

struct export_result {
  bool source_written = false;
  std::string source_problem;          // why there is no source CSV (for the record)
};

// Runs `ncu -i REPORT --csv --page ...` for each page and writes its output atomically.
// Throws kopt::error when the raw or details export fails: the report is unreadable to this ncu.
export_result export_report(const std::filesystem::path& ncu, const std::filesystem::path& report,
                            const export_files& files,
                            std::chrono::seconds timeout = std::chrono::seconds(300));

}  // namespace kopt::profile
