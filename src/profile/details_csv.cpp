// The CSV details page. Metric rows and rule rows have different widths and each width has
// its own header line; ncu also prints prose lines between them. Every record is read through
// the most recent header of its own width, and rows are told apart by the columns they have.

#include <map>

#include "core/text.h"
#include "profile/csv_records.h"
#include "profile/metric_units.h"
#include "profile/rule_advice.h"

namespace kopt::profile {
namespace {

using column_index = std::map<std::string, size_t>;

bool is_header_line(const csv_record& record) {
  bool has_id = false;
  bool has_kind = false;
  for (const std::string& field : record) {
    has_id = has_id || field == "ID";
    has_kind = has_kind || field == "Rule Name" || field == "Metric Name" || field == "Section Name";
  }
  return has_id && has_kind;
}

// The value of the first of `names` that the header has ("" when none).
std::string field(const csv_record& row, const column_index& index,
                  std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const auto it = index.find(name);
    if (it != index.end() && it->second < row.size()) return row[it->second];
  }
  return {};
}

// ncu wraps long messages; kopt wants one line per message.
std::string collapse_whitespace(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : trim(text)) {
    const bool is_space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (is_space && space) continue;
    out += is_space ? ' ' : c;
    space = is_space;
  }
  return out;
}

}  // namespace

details_report parse_details_csv(std::string_view text) {
  details_report report{"csv", {}};
  std::map<size_t, column_index> headers;  // by record width
  for (const csv_record& record : parse_csv_lines(text)) {
    if (is_header_line(record)) {
      column_index index;
      for (size_t c = 0; c < record.size(); ++c) index.emplace(record[c], c);
      headers[record.size()] = std::move(index);
      continue;
    }
    const auto header = headers.find(record.size());
    if (header == headers.end()) continue;  // prose, or a row of a width never announced
    const column_index& index = header->second;
    const std::string rule = field(record, index, {"Rule Name"});
    const std::string type = field(record, index, {"Rule Type"});
    if (rule.empty() && type.empty()) continue;  // a metric row
    rule_advice advice;
    advice.launch_id = field(record, index, {"ID"});
    advice.kernel_name = field(record, index, {"Kernel Name"});
    advice.section = field(record, index, {"Section Name"});
    advice.rule = rule;
    advice.type = type;
    advice.description = collapse_whitespace(field(record, index, {"Rule Description", "Description"}));
    advice.speedup_type = to_lower(trim(field(record, index, {"Estimated Speedup Type"})));
    advice.estimated_speedup_pct =
        parse_metric_number(field(record, index, {"Estimated Speedup", "Estimated Speedup Value"}));
    report.advice.push_back(std::move(advice));
  }
  return report;
}

details_report parse_details(std::string_view text) {
  for (const std::string& line : split_lines(text)) {
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    if (t.front() == '"') return parse_details_csv(text);
    // The printed page starts with "[PID] process@host"; ncu may print "==PROF==" lines first.
    if (t.rfind("==", 0) == 0) continue;
    return parse_details_text(text);
  }
  return details_report{"text", {}};
}

}  // namespace kopt::profile
