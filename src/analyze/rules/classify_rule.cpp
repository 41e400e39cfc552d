// The bottleneck class, decided in a fixed order (first match wins) from the speed-of-light
// figures and what the other rules read. Thresholds follow NVIDIA's own speed-of-light rules:
// under 60 % of peak on both units means neither is busy (launch, occupancy or latency);
// a 10-point lead names the busier unit; 80 % or more is near the hardware limit.

#include <string>

#include <fmt/format.h>

#include "analyze/rules/rules.h"
#include "core/text.h"

namespace kopt::analyze::rules {
namespace {

constexpr double busy_pct = 60.0;       // [% of peak] below it on both units: not throughput-bound
constexpr double limit_pct = 80.0;      // [% of peak] at or above it: near the hardware limit
constexpr double lead_points = 10.0;    // [%-points] a unit this far ahead is the bottleneck
constexpr double occupancy_ok_pct = 80.0;   // [%] theoretical occupancy that needs no attention
constexpr double achieved_gap_points = 10.0;

std::string stalls_text(const issue_stats& s) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < s.stalls.size() && i < 2; ++i) {
    parts.push_back(fmt::format("{} {:.0f} %", s.stalls[i].reason, s.stalls[i].share_pct));
  }
  return parts.empty() ? std::string("no stall metrics") : join(parts, ", ");
}

bottleneck memory_class(const std::string& unit) {
  if (unit == "l2") return bottleneck::l2;
  if (unit == "l1") return bottleneck::l1;
  return bottleneck::dram;
}

}  // namespace

void classify(kernel_diagnosis& d) {
  classification& v = d.verdict;
  const speed_of_light& s = d.sol;
  if (!s.sm_pct || !s.memory_pct) {
    v.cls = bottleneck::mixed;
    v.reason = "speed-of-light metrics are missing; no class can be decided";
    return;
  }
  const double sm = *s.sm_pct;
  const double mem = *s.memory_pct;
  v.numbers.push_back({"SM throughput", sm, "%", "sm__throughput.avg.pct_of_peak_sustained_elapsed"});
  v.numbers.push_back({"memory throughput", mem, "%",
                       "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"});

  if (sm < busy_pct && mem < busy_pct) {
    const launch_shape& l = d.launch;
    const bool under_one_wave = l.waves_per_sm && *l.waves_per_sm < 1.0;
    const bool fewer_blocks_than_sms = l.blocks && l.sm_count && *l.blocks < *l.sm_count;
    if (under_one_wave || fewer_blocks_than_sms) {
      v.cls = bottleneck::launch;
      if (l.waves_per_sm) v.numbers.push_back({"waves per SM", *l.waves_per_sm, "waves", "launch__waves_per_multiprocessor"});
      if (l.blocks) v.numbers.push_back({"blocks", *l.blocks, "blocks", "launch__grid_size"});
      if (l.sm_count) v.numbers.push_back({"SMs", *l.sm_count, "SMs", "device__attribute_multiprocessor_count"});
      v.reason = fmt::format("SM {:.1f} % and memory {:.1f} % of peak, and the grid of {} blocks fills "
                             "{:.2f} waves of the {} SMs: too little work to keep the GPU busy",
                             sm, mem, l.blocks ? format_thousands(static_cast<long long>(*l.blocks)) : "?",
                             l.waves_per_sm.value_or(0), l.sm_count ? format_thousands(static_cast<long long>(*l.sm_count)) : "?");
      return;
    }
    const occupancy& o = d.occ;
    const bool low_theoretical = o.theoretical_pct && *o.theoretical_pct < occupancy_ok_pct;
    const bool low_achieved = o.theoretical_pct && o.achieved_pct &&
                              *o.achieved_pct < *o.theoretical_pct - achieved_gap_points;
    if (low_theoretical || low_achieved) {
      v.cls = bottleneck::occupancy;
      if (o.theoretical_pct) v.numbers.push_back({"theoretical occupancy", *o.theoretical_pct, "%", "sm__maximum_warps_per_active_cycle_pct"});
      if (o.achieved_pct) v.numbers.push_back({"achieved occupancy", *o.achieved_pct, "%", "sm__warps_active.avg.pct_of_peak_sustained_active"});
      if (o.limit_blocks) v.numbers.push_back({"blocks per SM allowed", *o.limit_blocks, "blocks", "launch__occupancy_limit_" + (o.limiters.empty() ? std::string("*") : o.limiters.front())});
      v.reason = low_theoretical
          ? fmt::format("SM {:.1f} % and memory {:.1f} % of peak with theoretical occupancy {:.1f} % "
                        "(limited by {}: {:.0f} blocks per SM)",
                        sm, mem, *o.theoretical_pct, o.limiters.empty() ? std::string("?") : join(o.limiters, ", "),
                        o.limit_blocks.value_or(0))
          : fmt::format("SM {:.1f} % and memory {:.1f} % of peak; achieved occupancy {:.1f} % is "
                        "{:.1f} points under the theoretical {:.1f} %",
                        sm, mem, *o.achieved_pct, *o.theoretical_pct - *o.achieved_pct, *o.theoretical_pct);
      return;
    }
    v.cls = bottleneck::latency;
    for (size_t i = 0; i < d.issue.stalls.size() && i < 2; ++i) {
      const auto& st = d.issue.stalls[i];
      v.numbers.push_back({"stall " + st.reason, st.share_pct, "% of cycles between issues",
                           "smsp__average_warps_issue_stalled_" + st.reason + "_per_issue_active.ratio"});
    }
    v.reason = fmt::format("SM {:.1f} % and memory {:.1f} % of peak with enough warps: warps wait "
                           "({})",
                           sm, mem, stalls_text(d.issue));
    return;
  }

  if (mem - sm >= lead_points || (mem >= limit_pct && mem >= sm)) {
    v.cls = memory_class(s.memory_unit);
    v.at_hardware_limit = mem >= limit_pct;
    if (!s.memory_unit_metric.empty()) {
      const std::string& m = s.memory_unit_metric;
      v.numbers.push_back({"memory unit setting memory SOL", mem, "%", m});
    }
    v.reason = fmt::format("memory {:.1f} % vs SM {:.1f} % of peak{}; {} sets the memory figure ({})",
                           mem, sm, v.at_hardware_limit ? ", at the hardware limit" : "",
                           s.memory_unit.empty() ? std::string("dram (assumed)") : s.memory_unit,
                           s.memory_unit_how.empty() ? std::string("no unit metrics") : s.memory_unit_how);
    return;
  }
  if (sm - mem >= lead_points || sm >= limit_pct) {
    v.cls = bottleneck::compute;
    v.at_hardware_limit = sm >= limit_pct;
    const issue_stats& i = d.issue;
    if (i.busiest_pipe_pct) {
      v.numbers.push_back({"busiest pipe " + i.busiest_pipe, *i.busiest_pipe_pct, "%",
                           "sm__inst_executed_pipe_" + i.busiest_pipe + ".avg.pct_of_peak_sustained_active"});
    }
    v.reason = fmt::format("SM {:.1f} % vs memory {:.1f} % of peak{}; busiest pipe {}", sm, mem,
                           v.at_hardware_limit ? ", at the hardware limit" : "",
                           i.busiest_pipe_pct ? fmt::format("{} at {:.1f} %", i.busiest_pipe, *i.busiest_pipe_pct)
                                              : std::string("unknown"));
    return;
  }
  v.cls = bottleneck::mixed;
  v.reason = fmt::format("SM {:.1f} % and memory {:.1f} % of peak, within {:.0f} points of each other "
                         "and both under {:.0f} %: balanced, neither unit saturated",
                         sm, mem, lead_points, limit_pct);
}

}  // namespace kopt::analyze::rules
