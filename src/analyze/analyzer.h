#pragma once
// From parsed ncu pages to one diagnosis per profiled kernel launch.

#include <optional>
#include <string>
#include <vector>

#include "analyze/diagnosis.h"
#include "profile/raw_csv.h"
#include "profile/rule_advice.h"
#include "profile/source_counters.h"

namespace kopt::analyze {

struct analysis {
  std::string report;          // the file analysed (a .ncu-rep or a raw CSV)
  std::string details_file;    // where ncu's rule advice came from ("" when none)
  std::string details_format;  // "csv", "text" or ""
  std::string backend;         // which knowledge base the recommendations come from
  std::string backend_how;     // why that backend
  bool base_units = true;      // false: the raw CSV was auto-scaled and converted
  std::string source_file;     // where the source counters came from ("" when none)
  std::vector<kernel_diagnosis> kernels;
};

// `source`: the source page's functions with counters (empty: no hot lines are reported).
std::vector<kernel_diagnosis> diagnose(const profile::raw_report& raw,
                                       const std::optional<profile::details_report>& details,
                                       const std::string& backend,
                                       const std::vector<profile::source_function>& source = {});

}  // namespace kopt::analyze
