#pragma once
// The CSV pages of an Nsight Compute report (.ncu-rep), exported in memory for kopt analyze.
// Needs ncu, but no GPU: `ncu -i` only reads the file.

#include <filesystem>
#include <string>

namespace kopt::profile {

struct exported_pages {
  std::string raw_csv;      // --page raw --print-units base
  std::string details_csv;  // --page details --print-details all
  std::string source_csv;   // --page source --print-source cuda,sass; "" when ncu gave none
};

// Throws kopt::error when ncu cannot read the report (the first line says so; ncu's own
// output follows). The source page is optional: a report without it still analyses.
exported_pages export_report_pages(const std::filesystem::path& ncu,
                                   const std::filesystem::path& report);

}  // namespace kopt::profile
