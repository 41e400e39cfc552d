#pragma once
// RFC 4180-style CSV records as Nsight Compute writes them: every field may be quoted, quoted
// fields hold commas (template kernel names) and doubled quotes; lines end in LF or CRLF.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::profile {

using csv_record = std::vector<std::string>;

// How a quote inside a quoted field reads.
enum class csv_quoting {
  // RFC 4180: "" is one literal quote; any other quote closes the field.
  escaped,
  // ncu's source page copies source text as it is, quotes and all: "x = f("inf")". Every field
  // is quoted, so a quote closes its field only before `,"` or at the end of the line; any other
  // quote is text. Text that itself holds `","` still splits wrongly: check the record's width.
  verbatim,
};

// Splits one line into fields. Returns nullopt when the line is not CSV (an unterminated quote,
// or text after a closing quote), so callers can skip the prose ncu mixes into its output.
std::optional<csv_record> parse_csv_line(std::string_view line, csv_quoting quoting = csv_quoting::escaped);

// Every line of `text` that parses as CSV, in order; blank lines are skipped. A quoted field
// never spans lines in ncu's exports, so records are line-based.
std::vector<csv_record> parse_csv_lines(std::string_view text);

}  // namespace kopt::profile
