#pragma once
// Which kernel launches a report holds, read from ncu's raw CSV export by header name: the
// few columns kopt profile prints and records. The full metric parser belongs to analyze.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::profile {

struct profiled_kernel {
  std::string id;                               // ncu's launch ID within the report
  std::string name;                             // demangled, with its parameter list
  std::string grid;                             // "(32, 1, 1)"
  std::string block;                            // "(128, 1, 1)"
  std::optional<double> duration_ns;            // gpu__time_duration.sum [ns]
  std::optional<double> sm_throughput_pct;      // SM speed of light [% of peak]
  std::optional<double> memory_throughput_pct;  // memory speed of light [% of peak]
};

// One entry per launch row of `ncu -i R --csv --page raw --print-units base`, in order.
// Lines before the header and the units row are skipped; no header means no launches.
std::vector<profiled_kernel> read_profiled_kernels(std::string_view raw_csv);

// Splits one CSV line: quoted fields may hold commas and doubled quotes.
std::vector<std::string> split_csv_line(std::string_view line);

// "1,234.5" -> 1234.5; "" or "n/a" -> nullopt.
std::optional<double> parse_csv_number(std::string_view field);

}  // namespace kopt::profile
