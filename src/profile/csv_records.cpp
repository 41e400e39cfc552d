#include "profile/csv_records.h"

#include "core/text.h"

namespace kopt::profile {

std::optional<csv_record> parse_csv_line(std::string_view line, csv_quoting quoting) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  csv_record fields;
  std::string field;
  size_t i = 0;
  while (true) {
    field.clear();
    if (i < line.size() && line[i] == '"') {
      ++i;
      bool closed = false;
      while (i < line.size()) {
        if (line[i] == '"') {
          // Escaped: "" is one quote.
          if (quoting == csv_quoting::escaped && i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          // Verbatim: a quote that ends neither the line nor the field is text.
          if (quoting == csv_quoting::verbatim && i + 1 < line.size() && line.substr(i + 1, 2) != ",\"") {
            field += line[i++];
            continue;
          }
          closed = true;
          ++i;
          break;
        }
        field += line[i++];
      }
      if (!closed) return std::nullopt;
      if (i < line.size() && line[i] != ',') return std::nullopt;
    } else {
      const size_t end = line.find(',', i);
      field.assign(line.substr(i, end == std::string_view::npos ? line.npos : end - i));
      if (field.find('"') != std::string::npos) return std::nullopt;
      i = end == std::string_view::npos ? line.size() : end;
    }
    fields.push_back(field);
    if (i >= line.size()) break;
    ++i;  // the comma
    if (i == line.size()) {  // a trailing comma ends with an empty field
      fields.emplace_back();
      break;
    }
  }
  return fields;
}

std::vector<csv_record> parse_csv_lines(std::string_view text) {
  std::vector<csv_record> records;
  for (const std::string& line : split_lines(text)) {
    if (trim(line).empty()) continue;
    if (auto record = parse_csv_line(line)) records.push_back(std::move(*record));
  }
  return records;
}

}  // namespace kopt::profile
