#include "profile/raw_csv_kernels.h"

#include <algorithm>
#include <charconv>

#include "core/text.h"

namespace kopt::profile {
namespace {

// Column positions looked up by name, so that extra columns (--nvtx adds two) do not matter.
struct columns {
  std::size_t count = 0;
  std::optional<std::size_t> id, name, grid, block, duration, sm, memory;

  static columns of(const std::vector<std::string>& header) {
    columns c;
    c.count = header.size();
    auto find = [&](std::string_view wanted) -> std::optional<std::size_t> {
      const auto it = std::find(header.begin(), header.end(), wanted);
      if (it == header.end()) return std::nullopt;
      return static_cast<std::size_t>(it - header.begin());
    };
    c.id = find("ID");
    c.name = find("Kernel Name");
    c.grid = find("Grid Size");
    c.block = find("Block Size");
    c.duration = find("gpu__time_duration.sum");
    c.sm = find("sm__throughput.avg.pct_of_peak_sustained_elapsed");
    c.memory = find("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
    return c;
  }
};

std::string field(const std::vector<std::string>& row, std::optional<std::size_t> column) {
  return column && *column < row.size() ? row[*column] : std::string();
}

}  // namespace

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> fields;
  std::string current;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        current += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        current += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(current));
      current.clear();
    } else if (c != '\r') {
      current += c;
    }
  }
  fields.push_back(std::move(current));
  return fields;
}

std::optional<double> parse_csv_number(std::string_view field) {
  std::string digits;
  for (char c : trim(field)) {
    if (c != ',') digits += c;
  }
  if (digits.empty()) return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

std::vector<profiled_kernel> read_profiled_kernels(std::string_view raw_csv) {
  std::vector<profiled_kernel> kernels;
  std::optional<columns> header;
  for (const std::string& line : split_lines(raw_csv)) {
    // ncu's own messages (==WARNING== ...) may precede the table; its rows are quoted.
    if (line.empty() || line.front() != '"') continue;
    const std::vector<std::string> row = split_csv_line(line);
    if (!header) {
      const columns c = columns::of(row);
      if (c.id && c.name) header = c;
      continue;
    }
    // The units row has an empty ID; a launch row has its number.
    if (row.size() != header->count || field(row, header->id).empty()) continue;
    kernels.push_back({.id = field(row, header->id),
                       .name = field(row, header->name),
                       .grid = field(row, header->grid),
                       .block = field(row, header->block),
                       .duration_ns = parse_csv_number(field(row, header->duration)),
                       .sm_throughput_pct = parse_csv_number(field(row, header->sm)),
                       .memory_throughput_pct = parse_csv_number(field(row, header->memory))});
  }
  return kernels;
}

}  // namespace kopt::profile
