#pragma once
// The raw page of an Nsight Compute report (`ncu -i R --csv --page raw`): one row per profiled
// kernel launch, every collected metric a column.
//
// Row 1 names the columns, row 2 gives their units, then one row per launch. Launch attributes
// (ID, Kernel Name, Block Size, ..., and the NVTX columns an `--nvtx` capture adds) come
// first; metric columns are the ones whose name holds "__" (ncu's unit__counter naming).
// Columns are looked up by name, never by position.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::profile {

struct metric_value {
  std::string text;             // the exported text, unquoted
  std::string unit;             // the exported unit ("Mbyte", "us", "%", "")
  std::optional<double> value;  // in SI base units (see metric_units.h); nullopt for text
};

struct kernel_launch {
  std::string id;              // ncu's ID column: the launch's index in the report
  std::string kernel_name;     // demangled, as ncu prints it
  std::string block_size;      // "(256, 1, 1)"
  std::string grid_size;       // "(4096, 1, 1)"
  std::string device;          // device index
  std::string compute_capability;  // "9.0"
  std::map<std::string, std::string> attributes;  // every non-metric column by name (NVTX too)
  std::map<std::string, metric_value> metrics;    // by metric name

  // The metric's value in base units, or nullopt when absent or not a number.
  std::optional<double> number(std::string_view metric) const;
  // The metric's text, or "" when absent.
  std::string text(std::string_view metric) const;
  bool has(std::string_view metric) const;
};

struct raw_report {
  std::vector<kernel_launch> launches;  // in report order
  bool base_units = true;               // false: the export was auto-scaled and kopt converted it
};

// Throws kopt::error when the text is not an ncu raw export ("not an Nsight Compute raw CSV
// export: ...") or holds no kernel launch. `source` names the input in messages.
raw_report parse_raw_csv(std::string_view text, std::string_view source);

}  // namespace kopt::profile
