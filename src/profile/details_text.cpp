// The printed (non-CSV) details page: kernels, "Section:" headings, and rule messages that
// start with their type at a four-space indent and continue at a ten-space indent. Lines are
// read by plain scans, each character a bounded number of times: std::regex recurses once per
// character it matches, and one 30,000-character line overflowed the stack.

#include <string_view>

#include "core/text.h"
#include "profile/metric_units.h"
#include "profile/rule_advice.h"

namespace kopt::profile {
namespace {

// ECMAScript's \s: what the page's indents and line ends are made of.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim_spaces(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// Takes `prefix` off `text` when it starts with it.
bool take(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

bool take_digits(std::string_view& text) {
  std::size_t n = 0;
  while (n < text.size() && is_digit(text[n])) ++n;
  text.remove_prefix(n);
  return n > 0;
}

// "(65536, 1, 1)"
bool take_dim3(std::string_view& text) {
  return take(text, "(") && take_digits(text) && take(text, ", ") && take_digits(text) && take(text, ", ") &&
         take_digits(text) && take(text, ")");
}

// The rest of a line after its indent, trimmed; empty when it holds nothing but spaces.
std::string_view after_indent(std::string_view line, std::size_t indent) {
  if (line.size() < indent || line.substr(0, indent).find_first_not_of(' ') != std::string_view::npos) return {};
  return trim_spaces(line.substr(indent));
}

// "  NAME (GRID)x(BLOCK), Context 1, Stream 7, Device 0, CC 9.0": the kernel's name, or empty.
// NAME may itself hold " (" (a signature): the last place that reads as the launch's shape ends it.
std::string_view kernel_name_of(std::string_view line) {
  if (line.size() < 3 || line.substr(0, 2) != "  " || is_space(line[2])) return {};
  // The line ends with "CC MAJOR.MINOR" and spaces.
  std::string_view end = line;
  while (!end.empty() && is_space(end.back())) end.remove_suffix(1);
  std::size_t digits = 0;
  while (digits < end.size() && is_digit(end[end.size() - 1 - digits])) ++digits;
  if (digits == 0 || end.size() < digits + 1 || end[end.size() - 1 - digits] != '.') return {};
  end.remove_suffix(digits + 1);
  digits = 0;
  while (digits < end.size() && is_digit(end[end.size() - 1 - digits])) ++digits;
  if (digits == 0 || end.size() < digits + 3 || end.substr(end.size() - digits - 3, 3) != "CC ") return {};
  const std::size_t cc_at = end.size() - digits - 3;
  for (std::size_t at = line.rfind(" (", cc_at); at != std::string_view::npos && at > 2; at = line.rfind(" (", at - 1)) {
    std::string_view rest = line.substr(at + 1);
    if (take_dim3(rest) && take(rest, "x") && take_dim3(rest) && take(rest, ", ") &&
        line.size() - rest.size() <= cc_at) {
      return line.substr(2, at - 2);
    }
  }
  return {};
}

// "Est. Global Speedup: 28.71%" -> ("global", "28.71"); false for any other message.
bool speedup_of(std::string_view text, std::string& kind, std::string& number) {
  if (!take(text, "Est. ")) return false;
  kind = take(text, "Local ") ? "local" : "global";
  if (kind == "global") take(text, "Global ");
  if (!take(text, "Speedup: ") || text.size() < 2 || text.back() != '%') return false;
  text.remove_suffix(1);
  if (text.find_first_not_of("0123456789.") != std::string_view::npos) return false;
  number = std::string(text);
  return true;
}

bool is_rule_type(std::string_view word) { return word == "OPT" || word == "WRN" || word == "INF" || word == "ERR"; }

void append_words(std::string& out, std::string_view words) {
  if (!out.empty()) out += ' ';
  out += words;
}

}  // namespace

details_report parse_details_text(std::string_view text) {
  details_report report{"text", {}};
  std::string kernel_name;
  std::string section;
  int kernel_index = -1;
  rule_advice* open = nullptr;  // the rule whose message continues on the next lines
  for (const std::string& whole : split_lines(text)) {
    const std::string_view line = whole;
    if (open) {
      if (const std::string_view more = after_indent(line, 10); !more.empty()) {
        append_words(open->description, more);
        continue;
      }
    }
    open = nullptr;
    if (const std::string_view name = kernel_name_of(line); !name.empty()) {
      kernel_name = std::string(name);
      ++kernel_index;
      section.clear();
      continue;
    }
    std::string_view rest = line;
    if (take(rest, "    Section: ")) {
      // The heading as printed after "Section: ", its trailing spaces cut.
      while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
      if (!rest.empty()) section = std::string(rest);
      continue;
    }
    rest = line;
    if (!take(rest, "    ") || rest.size() < 4 || !is_rule_type(rest.substr(0, 3)) || !is_space(rest[3])) continue;
    const std::string_view message = trim_spaces(rest.substr(3));
    if (message.empty()) continue;
    rule_advice advice;
    advice.launch_id = kernel_index >= 0 ? std::to_string(kernel_index) : std::string{};
    advice.kernel_name = kernel_name;
    advice.section = section;
    advice.type = std::string(rest.substr(0, 3));
    std::string kind;
    std::string number;
    if (speedup_of(message, kind, number)) {
      advice.speedup_type = kind;
      advice.estimated_speedup_pct = parse_metric_number(number);
    } else {
      advice.description = std::string(message);
    }
    report.advice.push_back(std::move(advice));
    open = &report.advice.back();
  }
  return report;
}

}  // namespace kopt::profile
