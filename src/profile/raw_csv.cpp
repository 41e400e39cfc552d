#include "profile/raw_csv.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "profile/csv_records.h"
#include "profile/metric_units.h"

namespace kopt::profile {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t progress_every = 256;  // [launches]

bool is_metric_column(const std::string& name) { return name.find("__") != std::string::npos; }

// Whether the record has a field `a` and a field `b`.
bool names_both(const csv_record& record, std::string_view a, std::string_view b) {
  return std::find(record.begin(), record.end(), a) != record.end() &&
         std::find(record.begin(), record.end(), b) != record.end();
}

// The details page names its metrics in a column; the raw page has a column per metric.
bool is_details_header(const csv_record& record) { return names_both(record, "Metric Name", "Metric Value"); }

bool is_raw_header(const csv_record& record) { return names_both(record, "ID", "Kernel Name"); }

// The lines of `text` one at a time, without copying the text into lines first.
class line_reader {
 public:
  explicit line_reader(std::string_view text) : m_text(text) {}
  bool next(std::string_view& line) {
    if (m_at >= m_text.size()) return false;
    const std::size_t end = m_text.find('\n', m_at);
    const std::size_t stop = end == std::string_view::npos ? m_text.size() : end;
    line = m_text.substr(m_at, stop - m_at);
    m_at = stop + 1;
    ++m_number;
    return true;
  }
  std::size_t number() const { return m_number; }  // of the last line read, from 1

 private:
  std::string_view m_text;
  std::size_t m_at = 0;
  std::size_t m_number = 0;
};

// ncu quotes every field of its rows; its prose ("==PROF== ...", warnings) is never quoted.
bool is_quoted_row(std::string_view line) { return !line.empty() && line.front() == '"'; }

// The next record that parses as CSV (blank lines and ncu's prose are skipped).
std::optional<csv_record> next_record(line_reader& lines) {
  std::string_view line;
  while (lines.next(line)) {
    if (trim(line).empty()) continue;
    if (auto record = parse_csv_line(line)) return record;
  }
  return std::nullopt;
}

// The next launch row after the header: prose is skipped, but a quoted line that is not a whole
// row (a file cut short, a row edited by hand) is an error, not a launch quietly left out.
std::optional<csv_record> next_launch_row(line_reader& lines, std::size_t width, std::string_view source) {
  std::string_view line;
  while (lines.next(line)) {
    if (trim(line).empty()) continue;
    std::optional<csv_record> record = parse_csv_line(line);
    if (record && record->size() == width) return record;
    if (!is_quoted_row(line)) continue;
    throw error(fmt::format("{}: line {} is a malformed row ({}, where the header has {} fields): the file was "
                            "cut short or edited; export it again with `ncu -i REPORT.ncu-rep --csv --page raw "
                            "--print-units base`",
                            source, lines.number(),
                            record ? fmt::format("{} fields", record->size()) : std::string("an unterminated quote"),
                            width));
  }
  return std::nullopt;
}

// Where the page's columns are: the launch attributes by name, and for each metric column its
// index in the shared table and its unit's conversion.
struct page_layout {
  std::map<std::string, std::size_t> attribute_columns;
  std::vector<std::size_t> metric_source;   // metric index → column in the row
  std::vector<double> factor;               // metric index → to base units
  std::shared_ptr<metric_columns> columns = std::make_shared<metric_columns>();
  std::size_t width = 0;
};

page_layout layout_of(const csv_record& header, const std::vector<std::string>& units, bool& base_units) {
  page_layout layout;
  layout.width = header.size();
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (!is_ncu_base_unit(units[c])) base_units = false;
    if (!is_metric_column(header[c])) {
      layout.attribute_columns.emplace(header[c], c);
      continue;
    }
    layout.columns->add(header[c], units[c]);
    layout.metric_source.push_back(c);
    layout.factor.push_back(convert_unit(units[c]).factor);
  }
  layout.columns->sort_by_name();
  return layout;
}

std::string attribute(const csv_record& row, const page_layout& layout, const char* name) {
  const auto it = layout.attribute_columns.find(name);
  return it == layout.attribute_columns.end() ? std::string{} : row[it->second];
}

kernel_launch launch_of(const csv_record& row, const page_layout& layout) {
  kernel_launch launch;
  launch.id = attribute(row, layout, "ID");
  launch.kernel_name = attribute(row, layout, "Kernel Name");
  launch.block_size = attribute(row, layout, "Block Size");
  launch.grid_size = attribute(row, layout, "Grid Size");
  launch.device = attribute(row, layout, "Device");
  launch.compute_capability = attribute(row, layout, "CC");
  for (const auto& [name, c] : layout.attribute_columns) launch.attributes.emplace(name, row[c]);
  launch.columns = layout.columns;
  launch.values.assign(layout.metric_source.size(), not_a_number);
  for (std::size_t m = 0; m < layout.metric_source.size(); ++m) {
    const std::string& cell = row[layout.metric_source[m]];
    if (const auto value = parse_metric_number(cell)) {
      launch.values[m] = *value * layout.factor[m];
    } else if (!cell.empty()) {
      launch.texts.emplace(static_cast<std::uint32_t>(m), cell);
    }
  }
  return launch;
}

}  // namespace

std::uint32_t metric_columns::add(const std::string& name, const std::string& unit) {
  const auto at = static_cast<std::uint32_t>(names.size());
  names.push_back(name);
  units.push_back(unit);
  index.emplace(name, at);
  return at;
}

void metric_columns::sort_by_name() {
  by_name.resize(names.size());
  for (std::uint32_t i = 0; i < by_name.size(); ++i) by_name[i] = i;
  std::sort(by_name.begin(), by_name.end(), [&](std::uint32_t a, std::uint32_t b) { return names[a] < names[b]; });
}

std::optional<double> kernel_launch::number(std::string_view metric) const {
  if (!columns) return std::nullopt;
  const auto it = columns->index.find(std::string(metric));
  if (it == columns->index.end() || std::isnan(values[it->second])) return std::nullopt;
  return values[it->second];
}

std::string kernel_launch::text(std::string_view metric) const {
  if (!columns) return "";
  const auto it = columns->index.find(std::string(metric));
  if (it == columns->index.end()) return "";
  const auto found = texts.find(it->second);
  return found == texts.end() ? std::string{} : found->second;
}

std::string kernel_launch::unit(std::string_view metric) const {
  if (!columns) return "";
  const auto it = columns->index.find(std::string(metric));
  return it == columns->index.end() ? std::string{} : columns->units[it->second];
}

bool kernel_launch::has(std::string_view metric) const {
  return columns && columns->index.count(std::string(metric)) > 0;
}

void kernel_launch::for_each_number(const std::function<void(const std::string& name, double value)>& visit) const {
  if (!columns) return;
  for (const std::uint32_t m : columns->by_name) {
    if (!std::isnan(values[m])) visit(columns->names[m], values[m]);
  }
}

kernel_launch kernel_launch::with_numbers(const std::map<std::string, double>& numbers) {
  auto table = std::make_shared<metric_columns>();
  kernel_launch launch;
  for (const auto& [name, value] : numbers) {
    table->add(name, "");
    launch.values.push_back(value);
  }
  table->sort_by_name();
  launch.columns = table;
  return launch;
}

namespace {

// The page's launches, or nullopt when no record names a kernel's columns.
std::optional<raw_report> launches_of(std::string_view text, std::string_view source,
                                      const std::function<void(std::size_t launches)>& progress) {
  line_reader lines(text);
  std::optional<csv_record> header;
  while (auto record = next_record(lines)) {
    // The first record whose columns name a kernel; ncu's own prose ("==PROF==" lines) may precede.
    if (is_raw_header(*record)) {
      header = std::move(record);
      break;
    }
  }
  if (!header) return std::nullopt;
  if (is_details_header(*header)) {
    throw error(fmt::format("{} is Nsight Compute's details page (a row per metric), not its raw page: pass the raw "
                            "page (`ncu -i REPORT.ncu-rep --csv --page raw --print-units base > raw.csv`), and the "
                            "details page with --details",
                            source));
  }
  std::map<std::string, std::size_t> by_name;
  for (std::size_t c = 0; c < header->size(); ++c) by_name.emplace((*header)[c], c);
  const std::size_t id_column = by_name.at("ID");

  // Row 2 holds the units: its launch-attribute cells are empty, unlike a launch row's ID.
  std::vector<std::string> units(header->size());
  std::optional<csv_record> row = next_launch_row(lines, header->size(), source);
  if (row && (*row)[id_column].empty()) {
    units = std::move(*row);
    row = next_launch_row(lines, header->size(), source);
  }

  // Conversions per column, computed once; a unit that `--print-units base` never writes marks
  // the export as auto-scaled.
  raw_report report;
  const page_layout layout = layout_of(*header, units, report.base_units);
  for (; row; row = next_launch_row(lines, layout.width, source)) {
    report.launches.push_back(launch_of(*row, layout));
    if (progress && report.launches.size() % progress_every == 0) progress(report.launches.size());
  }
  return report;
}

}  // namespace

raw_report parse_raw_csv(std::string_view text, std::string_view source,
                         const std::function<void(std::size_t launches)>& progress) {
  std::optional<raw_report> report = launches_of(text, source, progress);
  if (!report) {
    throw error(
        fmt::format("{} is not an Nsight Compute raw CSV export (no header with \"ID\" and "
                    "\"Kernel Name\"): export one with `ncu -i REPORT.ncu-rep --csv "
                    "--page raw --print-units base > raw.csv`",
                    source));
  }
  if (report->launches.empty()) {
    throw error(fmt::format("{} holds no profiled kernel launch: profile the kernel again and check "
                            "that ncu captured it (`ncu --print-summary per-kernel` lists them)",
                            source));
  }
  return std::move(*report);
}

raw_report read_raw_csv(std::string_view text, std::string_view source) {
  return launches_of(text, source, {}).value_or(raw_report{});
}

}  // namespace kopt::profile
