#include "profile/raw_csv.h"

#include <fmt/format.h>

#include "core/error.h"
#include "profile/csv_records.h"
#include "profile/metric_units.h"

namespace kopt::profile {
namespace {

bool is_metric_column(const std::string& name) { return name.find("__") != std::string::npos; }

// The first record whose columns name a kernel; ncu's own prose ("==PROF==" lines) may precede.
size_t find_header(const std::vector<csv_record>& records) {
  for (size_t i = 0; i < records.size(); ++i) {
    bool has_id = false;
    bool has_name = false;
    for (const std::string& field : records[i]) {
      has_id = has_id || field == "ID";
      has_name = has_name || field == "Kernel Name";
    }
    if (has_id && has_name) return i;
  }
  return records.size();
}

std::string column(const csv_record& row, const std::map<std::string, size_t>& index,
                   const std::string& name) {
  const auto it = index.find(name);
  return it == index.end() || it->second >= row.size() ? std::string{} : row[it->second];
}

}  // namespace

std::optional<double> kernel_launch::number(std::string_view metric) const {
  const auto it = metrics.find(std::string(metric));
  if (it == metrics.end()) return std::nullopt;
  return it->second.value;
}

std::string kernel_launch::text(std::string_view metric) const {
  const auto it = metrics.find(std::string(metric));
  return it == metrics.end() ? std::string{} : it->second.text;
}

bool kernel_launch::has(std::string_view metric) const {
  return metrics.find(std::string(metric)) != metrics.end();
}

raw_report parse_raw_csv(std::string_view text, std::string_view source) {
  const std::vector<csv_record> records = parse_csv_lines(text);
  const size_t header_at = find_header(records);
  if (header_at == records.size()) {
    throw error(fmt::format("{} is not an Nsight Compute raw CSV export (no header with \"ID\" and "
                            "\"Kernel Name\"): export one with `ncu -i REPORT.ncu-rep --csv "
                            "--page raw --print-units base > raw.csv`",
                            source));
  }
  const csv_record& header = records[header_at];
  std::map<std::string, size_t> index;
  for (size_t c = 0; c < header.size(); ++c) index.emplace(header[c], c);

  // Row 2 holds the units: its launch-attribute cells are empty, unlike a launch row's ID.
  size_t first_row = header_at + 1;
  std::vector<std::string> units(header.size());
  if (first_row < records.size() && records[first_row].size() == header.size() &&
      column(records[first_row], index, "ID").empty()) {
    units = records[first_row];
    ++first_row;
  }

  // Conversions per column, computed once; a unit that `--print-units base` never writes marks
  // the export as auto-scaled.
  raw_report report;
  std::vector<unit_conversion> conversions(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    conversions[c] = convert_unit(units[c]);
    if (!is_ncu_base_unit(units[c])) report.base_units = false;
  }

  for (size_t r = first_row; r < records.size(); ++r) {
    const csv_record& row = records[r];
    if (row.size() != header.size()) continue;  // prose or a truncated line
    kernel_launch launch;
    launch.id = column(row, index, "ID");
    launch.kernel_name = column(row, index, "Kernel Name");
    launch.block_size = column(row, index, "Block Size");
    launch.grid_size = column(row, index, "Grid Size");
    launch.device = column(row, index, "Device");
    launch.compute_capability = column(row, index, "CC");
    for (size_t c = 0; c < header.size(); ++c) {
      if (!is_metric_column(header[c])) {
        launch.attributes.emplace(header[c], row[c]);
        continue;
      }
      metric_value value{row[c], units[c], parse_metric_number(row[c])};
      if (value.value) *value.value *= conversions[c].factor;
      launch.metrics.emplace(header[c], std::move(value));
    }
    report.launches.push_back(std::move(launch));
  }
  if (report.launches.empty()) {
    throw error(fmt::format("{} holds no profiled kernel launch: profile the kernel again and check "
                            "that ncu captured it (`ncu --print-summary per-kernel` lists them)",
                            source));
  }
  return report;
}

}  // namespace kopt::profile
