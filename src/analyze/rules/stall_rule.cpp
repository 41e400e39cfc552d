// Issue efficiency and the stall reasons that dominate the cycles between two issued
// instructions. A reason's share is its cycles per issue over the warp latency per issued
// instruction (ncu's "x% of the total average of N cycles between issuing two instructions").

#include <algorithm>
#include <array>
#include <string>

#include "analyze/rules/metric_reads.h"
#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {
namespace {

constexpr std::array<const char*, 19> reasons = {
    "long_scoreboard", "short_scoreboard", "mio_throttle", "lg_throttle",   "barrier",
    "math_pipe_throttle", "wait",          "not_selected", "no_instruction", "branch_resolving",
    "membar",          "drain",            "dispatch_stall", "tex_throttle", "sleeping",
    "gmma",            "imc_miss",         "misc",         "selected"};

}  // namespace

void read_issue_and_stalls(const profile::kernel_launch& k, kernel_diagnosis& d) {
  issue_stats& s = d.issue;
  read_metrics(k, s,
               {{&issue_stats::issue_active_per_cycle, "smsp__issue_active.avg.per_cycle_active"},
                {&issue_stats::eligible_warps_per_cycle, "smsp__warps_eligible.avg.per_cycle_active"},
                {&issue_stats::cycles_per_issue, "smsp__average_warp_latency_per_inst_issued.ratio"}});

  std::vector<stall_reason> all;
  double total = 0;
  for (const char* reason : reasons) {
    const auto cycles = k.number(std::string("smsp__average_warps_issue_stalled_") + reason +
                                 "_per_issue_active.ratio");
    if (!cycles) continue;
    total += *cycles;
    // "selected" is the issuing cycle itself, not a stall; it only counts toward the total.
    if (std::string_view(reason) != "selected" && *cycles > 0) all.push_back({reason, *cycles, 0});
  }
  const double denominator = s.cycles_per_issue.value_or(total);
  if (all.empty() || denominator <= 0) return;
  for (auto& r : all) r.share_pct = 100.0 * r.cycles_per_issue / denominator;
  std::sort(all.begin(), all.end(),
            [](const stall_reason& a, const stall_reason& b) { return a.cycles_per_issue > b.cycles_per_issue; });
  s.stalls = std::move(all);
}

}  // namespace kopt::analyze::rules
