// Theoretical and achieved occupancy, and what limits the theoretical one: each
// launch__occupancy_limit_* metric is the number of blocks per SM that one resource allows,
// so the smallest names the limiter (several when they tie).

#include <array>
#include <utility>

#include "analyze/rules/metric_reads.h"
#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {

void read_occupancy(const profile::kernel_launch& k, kernel_diagnosis& d) {
  occupancy& o = d.occ;
  read_metrics(k, o,
               {{&occupancy::theoretical_pct, "sm__maximum_warps_per_active_cycle_pct"},
                {&occupancy::achieved_pct, "sm__warps_active.avg.pct_of_peak_sustained_active"}});
  const std::array<std::pair<const char*, const char*>, 5> limits = {{
      {"registers", "launch__occupancy_limit_registers"},
      {"shared_mem", "launch__occupancy_limit_shared_mem"},
      {"warps", "launch__occupancy_limit_warps"},
      {"blocks", "launch__occupancy_limit_blocks"},
      {"barriers", "launch__occupancy_limit_barriers"},
  }};
  for (const auto& [name, metric] : limits) {
    const auto blocks = k.number(metric);
    if (!blocks) continue;
    if (!o.limit_blocks || *blocks < *o.limit_blocks) {
      o.limit_blocks = blocks;
      o.limiters = {name};
    } else if (*blocks == *o.limit_blocks) {
      o.limiters.emplace_back(name);
    }
  }
}

}  // namespace kopt::analyze::rules
