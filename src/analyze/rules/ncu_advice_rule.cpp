// ncu's own rule results for the launch, and a cross-check of kopt's class against its
// SOLBottleneck rule, whose message names what it sees as the bottleneck.

#include <algorithm>
#include <string>

#include "analyze/rules/rules.h"
#include "core/text.h"

namespace kopt::analyze::rules {
namespace {

bool contains(const std::string& text, std::string_view what) { return text.find(what) != std::string::npos; }

// kopt's class for a SOLBottleneck message ("" when the message names none of them).
std::string class_of_message(const std::string& message) {
  const std::string m = to_lower(message);
  if (contains(m, "grid is too small") || contains(m, "small grid")) return "launch";
  if (contains(m, "latency issue")) return "latency";
  if (contains(m, "dram bottleneck")) return "dram";
  if (contains(m, "l2 bottleneck")) return "l2";
  if (contains(m, "l1 bottleneck")) return "l1";
  if (contains(m, "memory is more heavily utilized")) return "memory";
  if (contains(m, "compute is more heavily utilized")) return "compute";
  if (contains(m, "balanced")) return "mixed";
  if (contains(m, "greater than 80")) {
    // "... Start by analyzing L1 in the Memory Workload Analysis section."
    if (contains(m, "analyzing dram")) return "dram";
    if (contains(m, "analyzing l2")) return "l2";
    if (contains(m, "analyzing l1")) return "l1";
    if (contains(m, "compute workload")) return "compute";
    return "limit";
  }
  return "";
}

// kopt splits ncu's "latency" into occupancy and latency, and ncu's "more than 80 %" covers
// any unit at its limit.
bool agrees(const std::string& ncu_class, const classification& v) {
  if (ncu_class == to_string(v.cls)) return true;
  if (ncu_class == "latency") return v.cls == bottleneck::occupancy;
  if (ncu_class == "memory") return v.cls == bottleneck::dram || v.cls == bottleneck::l2 || v.cls == bottleneck::l1;
  if (ncu_class == "limit") return v.at_hardware_limit;
  return false;
}

}  // namespace

void attach_ncu_advice(const std::vector<profile::rule_advice>& advice, kernel_diagnosis& d) {
  for (const auto& a : advice) {
    if (a.launch_id != d.launch_id) continue;
    if (a.rule == "SOLBottleneck") {
      d.cross_check.available = true;
      d.cross_check.ncu_says = a.description;
      d.cross_check.ncu_class = class_of_message(a.description);
      d.cross_check.agrees = agrees(d.cross_check.ncu_class, d.verdict);
    }
    if (a.type == "OPT" || a.type == "WRN") d.ncu_advice.push_back(a);
  }
  std::stable_sort(d.ncu_advice.begin(), d.ncu_advice.end(), [](const auto& a, const auto& b) {
    return a.estimated_speedup_pct.value_or(-1) > b.estimated_speedup_pct.value_or(-1);
  });
}

}  // namespace kopt::analyze::rules
