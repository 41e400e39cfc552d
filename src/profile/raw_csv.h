#pragma once
// The raw page of an Nsight Compute report (`ncu -i R --csv --page raw`): one row per profiled
// kernel launch, every collected metric a column.
//
// Row 1 names the columns, row 2 gives their units, then one row per launch. Launch attributes
// (ID, Kernel Name, Block Size, ..., and the NVTX columns an `--nvtx` capture adds) come
// first; metric columns are the ones whose name holds "__" (ncu's unit__counter naming).
// Columns are looked up by name, never by position.
//
// A full set has about 7,800 metrics, and a whole program's report thousands of launches: the
// page is read row by row, the metrics' names and units are kept once for the report, and a
// launch keeps only its numbers (and the few cells that are text).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kopt::profile {

// The metric columns of one raw page, shared by its launches.
struct metric_columns {
  std::vector<std::string> names;
  std::vector<std::string> units;  // as exported ("Mbyte", "us", "%", "")
  std::unordered_map<std::string, std::uint32_t> index;
  std::vector<std::uint32_t> by_name;  // the columns in name order (see sort_by_name)

  // Adds a column; returns its index.
  std::uint32_t add(const std::string& name, const std::string& unit);
  // Fills by_name, once every column is added.
  void sort_by_name();
};

struct kernel_launch {
  std::string id;              // ncu's ID column: the launch's index in the report
  std::string kernel_name;     // demangled, as ncu prints it
  std::string block_size;      // "(256, 1, 1)"
  std::string grid_size;       // "(4096, 1, 1)"
  std::string device;          // device index
  std::string compute_capability;  // "9.0"
  std::map<std::string, std::string> attributes;  // every non-metric column by name (NVTX too)

  // The metric's value in base units, or nullopt when absent or not a number.
  std::optional<double> number(std::string_view metric) const;
  // The metric's text when it is not a number ("CachePreferNone"), else "".
  std::string text(std::string_view metric) const;
  // The metric's unit as exported, or "" when absent.
  std::string unit(std::string_view metric) const;
  bool has(std::string_view metric) const;
  // Every metric whose cell is a number, with its value in base units, in name order.
  void for_each_number(const std::function<void(const std::string& name, double value)>& visit) const;

  // A launch of these metrics alone (in base units): for tests and hand-made reports.
  static kernel_launch with_numbers(const std::map<std::string, double>& numbers);

  // The columns (shared with the report's other launches), and per column the number (NaN:
  // not a number, or absent from the row) and the text of cells that are not numbers.
  std::shared_ptr<const metric_columns> columns;
  std::vector<double> values;
  std::unordered_map<std::uint32_t, std::string> texts;
};

struct raw_report {
  std::vector<kernel_launch> launches;  // in report order
  bool base_units = true;               // false: the export was auto-scaled and kopt converted it
};

// Throws kopt::error when the text is not an ncu raw export ("not an Nsight Compute raw CSV
// export: ...") or holds no kernel launch. `source` names the input in messages. `progress`,
// when given, is told every so many launches how many were read.
raw_report parse_raw_csv(std::string_view text, std::string_view source,
                         const std::function<void(std::size_t launches)>& progress = {});

// The same reading for a page kopt exported itself, where a page without a header or without a
// launch (ncu captured nothing) is an answer, not an error: an empty report. A malformed row
// still throws.
raw_report read_raw_csv(std::string_view text, std::string_view source);

}  // namespace kopt::profile
