#pragma once
// Nsight Compute's own rule results (its "details" page): what each rule concluded about a
// kernel launch and the speedup it estimates. kopt reports them beside its own diagnosis and
// cross-checks its class against the SOLBottleneck rule.

#include <optional>
#include <string>
#include <vector>

namespace kopt::profile {

struct rule_advice {
  std::string launch_id;     // the raw page's ID of the launch it is about ("" if unknown)
  std::string kernel_name;
  std::string section;       // "GPU Speed Of Light Throughput"
  std::string rule;          // "SOLBottleneck"; "" when read from the text page, which omits it
  std::string type;          // OPT (an optimization), WRN (a warning), INF (information)
  std::string description;   // the rule's message, whitespace collapsed
  std::string speedup_type;  // "global" or "local" ("" when the rule estimates none)
  std::optional<double> estimated_speedup_pct;  // [%]
};

struct details_report {
  std::string format;  // "csv" (--csv --page details) or "text" (the printed details page)
  std::vector<rule_advice> advice;
};

// The CSV details page (`--csv --page details --print-details all`): metric rows and rule rows
// of different widths, each read through the header of its own width; non-CSV lines skipped.
details_report parse_details_csv(std::string_view text);

// The printed details page (`ncu -i R --page details`): sections, metric tables and rule
// messages ("    OPT   Est. Speedup: 28.71%" followed by indented lines). Rule names are
// not printed there, so `rule` stays empty.
details_report parse_details_text(std::string_view text);

// Either form, told apart by the first non-blank line.
details_report parse_details(std::string_view text);

}  // namespace kopt::profile
