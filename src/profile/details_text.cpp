// The printed (non-CSV) details page: kernels, "Section:" headings, and rule messages that
// start with their type at a four-space indent and continue at a ten-space indent.

#include <regex>

#include "core/text.h"
#include "profile/metric_units.h"
#include "profile/rule_advice.h"

namespace kopt::profile {
namespace {

const std::regex kernel_line(R"(^  (\S.*) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\), .*CC \d+\.\d+\s*$)");
const std::regex section_line(R"(^    Section: (.*\S)\s*$)");
const std::regex rule_line(R"(^    (OPT|WRN|INF|ERR)\s+(.*\S)\s*$)");
const std::regex speedup_text(R"(^Est\. (Local |Global )?Speedup: ([0-9.]+)%$)");
const std::regex continuation_line(R"(^ {10}\s*(\S.*\S|\S)\s*$)");

void append_words(std::string& out, const std::string& words) {
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
  for (const std::string& line : split_lines(text)) {
    std::smatch m;
    if (open && std::regex_match(line, m, continuation_line)) {
      append_words(open->description, m[1]);
      continue;
    }
    open = nullptr;
    if (std::regex_match(line, m, kernel_line)) {
      kernel_name = m[1];
      ++kernel_index;
      section.clear();
    } else if (std::regex_match(line, m, section_line)) {
      section = m[1];
    } else if (std::regex_match(line, m, rule_line)) {
      rule_advice advice;
      advice.launch_id = kernel_index >= 0 ? std::to_string(kernel_index) : std::string{};
      advice.kernel_name = kernel_name;
      advice.section = section;
      advice.type = m[1];
      const std::string first = m[2];
      std::smatch s;
      if (std::regex_match(first, s, speedup_text)) {
        advice.speedup_type = s[1].str() == "Local " ? "local" : "global";
        advice.estimated_speedup_pct = parse_metric_number(s[2].str());
      } else {
        advice.description = first;
      }
      report.advice.push_back(std::move(advice));
      open = &report.advice.back();
    }
  }
  return report;
}

}  // namespace kopt::profile
