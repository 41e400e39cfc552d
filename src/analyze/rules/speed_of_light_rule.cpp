// SM and memory speed of light, and which memory unit the memory figure stands for.
//
// Memory SOL (gpu__compute_memory_throughput) is the maximum over a breakdown of unit
// throughputs, so the unit that sets it is the breakdown metric whose value equals it. That
// is not always the largest of the headline dram/lts/l1tex throughputs: lts__throughput can
// read higher than the L2 figures inside the breakdown while DRAM sets memory SOL.

#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "analyze/rules/metric_reads.h"
#include "analyze/rules/rules.h"

namespace kopt::analyze::rules {
namespace {

constexpr double match_tolerance_pct = 0.005;  // [%-points] ncu prints six decimals

// The memory unit a metric belongs to, by its ncu unit prefix ("" for none).
std::string_view unit_of(std::string_view metric) {
  const size_t dot = metric.rfind('.', metric.find("__"));  // section-prefixed raw columns
  if (dot != std::string_view::npos) metric.remove_prefix(dot + 1);
  if (metric.rfind("breakdown:", 0) == 0) metric.remove_prefix(10);
  for (std::string_view p : {"dram__", "dramc__", "fbpa__", "fbp__"}) {
    if (metric.rfind(p, 0) == 0) return "dram";
  }
  for (std::string_view p : {"lts__", "ltc__"}) {
    if (metric.rfind(p, 0) == 0) return "l2";
  }
  if (metric.rfind("l1tex__", 0) == 0) return "l1";
  return "";
}

bool is_elapsed_pct(std::string_view metric) {
  constexpr std::string_view suffix = ".pct_of_peak_sustained_elapsed";
  return metric.size() > suffix.size() && metric.substr(metric.size() - suffix.size()) == suffix &&
         (metric.find(".avg.") != std::string_view::npos || metric.find(".sum.") != std::string_view::npos ||
          metric.find(".max.") != std::string_view::npos);
}

}  // namespace

void read_speed_of_light(const profile::kernel_launch& k, kernel_diagnosis& d) {
  speed_of_light& s = d.sol;
  read_metrics(
      k, s,
      {{&speed_of_light::sm_pct, "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
       {&speed_of_light::memory_pct, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"},
       {&speed_of_light::dram_pct, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"},
       {&speed_of_light::dram_pct, "dram__throughput.avg.pct_of_peak_sustained_elapsed"},
       {&speed_of_light::l2_pct, "lts__throughput.avg.pct_of_peak_sustained_elapsed"},
       {&speed_of_light::l1_pct, "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"}});
  if (!s.sm_pct || !s.memory_pct) {
    d.notes.push_back("speed-of-light metrics are missing (profile with --set full or the "
                      "SpeedOfLight section): no bottleneck class");
    return;
  }

  // The breakdown: any per-unit elapsed-% metric equal to memory SOL. With several matches
  // (dram__cycles_active and dram__throughput both equal it) they name the same unit, and the
  // breakdown ncu was asked for explicitly is preferred.
  k.for_each_number([&](const std::string& name, double value) {
    if (!is_elapsed_pct(name)) return;
    const std::string_view unit = unit_of(name);
    if (unit.empty() || std::fabs(value - *s.memory_pct) > match_tolerance_pct) return;
    const bool explicit_breakdown = name.rfind("breakdown:", 0) == 0;
    if (s.memory_unit.empty() || explicit_breakdown) {
      s.memory_unit = unit;
      s.memory_unit_metric = name;
      s.memory_unit_how = fmt::format("{} equals memory SOL", name);
    }
  });
  if (!s.memory_unit.empty()) return;

  // Without a matching breakdown metric, the closest headline unit throughput stands in.
  double best_gap = 1e300;
  const std::pair<const char*, std::optional<double>> units[] = {
      {"dram", s.dram_pct}, {"l2", s.l2_pct}, {"l1", s.l1_pct}};
  for (const auto& [unit, pct] : units) {
    if (!pct) continue;
    const double gap = std::fabs(*pct - *s.memory_pct);
    if (gap < best_gap) {
      best_gap = gap;
      s.memory_unit = unit;
    }
  }
  if (!s.memory_unit.empty()) {
    s.memory_unit_how = fmt::format(
        "no breakdown metric of gpu__compute_memory_throughput equals memory SOL; {} throughput "
        "is the closest ({:.1f} points away)",
        s.memory_unit, best_gap);
    d.notes.push_back("memory unit chosen by the closest unit throughput (request "
                      "breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed "
                      "to decide it exactly)");
  }
}

}  // namespace kopt::analyze::rules
