#pragma once
// Which kernel launches a report holds: the few columns of ncu's raw page that kopt profile
// prints and records, read through the raw page's one reader (raw_csv.h).

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
// No header or no launch row means no launches; a malformed row throws kopt::error naming
// `source`.
std::vector<profiled_kernel> read_profiled_kernels(std::string_view raw_csv,
                                                   std::string_view source = "ncu raw CSV");

}  // namespace kopt::profile
