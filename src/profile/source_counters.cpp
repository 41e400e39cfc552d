#include "profile/source_counters.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "core/text.h"
#include "profile/csv_records.h"
#include "profile/metric_units.h"

namespace kopt::profile {
namespace {

constexpr std::string_view samples_column = "Warp Stall Sampling (All Samples)";
constexpr std::string_view instructions_column = "Instructions Executed";
constexpr std::string_view stall_prefix = "stall_";
// A sample of a warp that was issuing: counted in All Samples, but not a stall.
constexpr std::string_view issuing_reason = "selected";

// Where a block's header puts the columns kopt reads. "Source" appears twice (the source text,
// then the SASS text); the first is the source line's.
struct block_columns {
  size_t width = 0;  // a row of another width cannot be read through this header
  size_t text = 0;
  size_t samples = 0;
  std::optional<size_t> instructions;
  std::vector<std::pair<std::string, size_t>> stalls;  // reason ("long_sb"), column
};

std::optional<size_t> first_column(const csv_record& header, std::string_view name) {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) return std::nullopt;
  return static_cast<size_t>(it - header.begin());
}

// nullopt for a view without counters (no sample column).
std::optional<block_columns> read_header(const csv_record& header) {
  const auto text = first_column(header, "Source");
  const auto samples = first_column(header, samples_column);
  if (!text || !samples) return std::nullopt;
  block_columns columns{header.size(), *text, *samples, first_column(header, instructions_column), {}};
  for (size_t c = 0; c < header.size(); ++c) {
    const std::string& name = header[c];
    // The "(Not Issued)" columns repeat the reasons for not-issued samples only.
    if (name.rfind(stall_prefix, 0) != 0 || name.find("(Not Issued)") != std::string::npos) continue;
    columns.stalls.emplace_back(name.substr(stall_prefix.size()), c);
  }
  return columns;
}

double number_at(const csv_record& row, size_t column) {
  if (column >= row.size()) return 0;
  return parse_metric_number(row[column]).value_or(0);  // "-": nothing counted
}

std::optional<int> line_number(std::string_view field) {
  field = trim(field);
  int value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (field.empty() || error != std::errc() || end != field.data() + field.size() || value < 1)
    return std::nullopt;
  return value;
}

struct line_tally {
  source_line line;
  std::vector<std::pair<std::string, double>> stalls;  // [samples] by reason, header order
};

struct function_tally {
  std::string name;
  std::vector<line_tally> lines;
};

line_tally& tally_for(std::vector<function_tally>& functions, const std::string& function,
                      const std::string& file, int line) {
  auto f =
      std::find_if(functions.begin(), functions.end(), [&](const auto& t) { return t.name == function; });
  if (f == functions.end()) f = functions.insert(functions.end(), function_tally{function, {}});
  auto l = std::find_if(f->lines.begin(), f->lines.end(),
                        [&](const auto& t) { return t.line.file == file && t.line.line == line; });
  if (l != f->lines.end()) return *l;
  line_tally fresh;
  fresh.line.file = file;
  fresh.line.line = line;
  return f->lines.emplace_back(std::move(fresh));
}

// Adds one source row. ncu prints a function's blocks once per profiled launch, so a line met
// again is the same code in another launch: its counts add to the first.
void add_row(line_tally& tally, const csv_record& row, const block_columns& columns) {
  if (tally.line.text.empty() && columns.text < row.size())
    tally.line.text = std::string(trim(row[columns.text]));
  tally.line.stall_samples += number_at(row, columns.samples);
  if (columns.instructions) tally.line.instructions_executed += number_at(row, *columns.instructions);
  for (const auto& [reason, column] : columns.stalls) {
    const double samples = number_at(row, column);
    auto it = std::find_if(tally.stalls.begin(), tally.stalls.end(),
                           [&](const auto& s) { return s.first == reason; });
    if (it == tally.stalls.end())
      tally.stalls.emplace_back(reason, samples);
    else
      it->second += samples;
  }
}

// The largest stall reason; "selected" (the warp was issuing) only when nothing else was sampled.
void pick_top_stall(line_tally& tally) {
  for (const bool issuing : {false, true}) {
    for (const auto& [reason, samples] : tally.stalls) {
      if ((reason == issuing_reason) != issuing) continue;
      if (samples > tally.line.top_stall_samples) {
        tally.line.top_stall = reason;
        tally.line.top_stall_samples = samples;
      }
    }
    if (!tally.line.top_stall.empty()) return;
  }
}

// ncu writes the source text unescaped ("other=-float("inf")"), which is not CSV; such a line
// is read again taking its quotes as text.
std::vector<csv_record> source_page_records(std::string_view text) {
  std::vector<csv_record> records;
  for (const std::string& line : split_lines(text)) {
    if (trim(line).empty()) continue;
    std::optional<csv_record> record = parse_csv_line(line);
    if (!record) record = parse_csv_line(line, csv_quoting::verbatim);
    if (record) records.push_back(std::move(*record));
  }
  return records;
}

}  // namespace

std::vector<source_function> parse_source_counters(std::string_view text) {
  std::vector<function_tally> tallies;
  std::string file;
  std::string function;
  std::optional<block_columns> columns;  // of the current block; nullopt outside one
  for (const csv_record& record : source_page_records(text)) {
    const std::string_view first = record.empty() ? std::string_view() : std::string_view(record[0]);
    if (record.size() == 2 && (first == "File Path" || first == "File Name")) {
      file = record[1];
      function.clear();
      columns.reset();
    } else if (record.size() == 2 && first == "Function Name") {
      function = record[1];
      columns.reset();
    } else if (first == "Line No") {
      columns = file.empty() ? std::nullopt : read_header(record);
    } else if (columns && record.size() == columns->width) {
      // SASS rows leave Line No empty: their counts are already in the line above them.
      if (const auto line = line_number(first))
        add_row(tally_for(tallies, function, file, *line), record, *columns);
    }
  }
  std::vector<source_function> functions;
  for (auto& tally : tallies) {
    source_function f{tally.name, {}, 0};
    for (auto& line : tally.lines) {
      pick_top_stall(line);
      f.stall_samples += line.line.stall_samples;
      f.lines.push_back(std::move(line.line));
    }
    functions.push_back(std::move(f));
  }
  return functions;
}

}  // namespace kopt::profile
