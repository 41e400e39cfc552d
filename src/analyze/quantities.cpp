#include "analyze/quantities.h"

#include <algorithm>
#include <array>

namespace kopt::analyze {
namespace {

constexpr std::array<std::string_view, 25> fixed_names = {
    "sm_pct", "memory_pct", "dram_pct", "l2_pct", "l1_pct", "at_hardware_limit",
    "waves_per_sm", "blocks", "threads_per_block", "registers_per_thread",
    "theoretical_occupancy_pct", "achieved_occupancy_pct", "limiter_registers",
    "limiter_shared_mem", "limiter_warps", "limiter_blocks", "limiter_barriers",
    "min_bytes_per_sector", "shared_conflict_pct", "l1_hit_pct", "l2_hit_pct",
    "arithmetic_intensity", "uses_tensor_cores", "uses_wgmma", "uses_mma"};

void put(std::map<std::string, double>& q, const char* name, const std::optional<double>& v) {
  if (v) q[name] = *v;
}

}  // namespace

std::map<std::string, double> diagnosis_quantities(const kernel_diagnosis& d) {
  std::map<std::string, double> q;
  put(q, "sm_pct", d.sol.sm_pct);
  put(q, "memory_pct", d.sol.memory_pct);
  put(q, "dram_pct", d.sol.dram_pct);
  put(q, "l2_pct", d.sol.l2_pct);
  put(q, "l1_pct", d.sol.l1_pct);
  q["at_hardware_limit"] = d.verdict.at_hardware_limit ? 1 : 0;
  put(q, "waves_per_sm", d.launch.waves_per_sm);
  put(q, "blocks", d.launch.blocks);
  put(q, "threads_per_block", d.launch.threads_per_block);
  put(q, "registers_per_thread", d.launch.registers_per_thread);
  put(q, "theoretical_occupancy_pct", d.occ.theoretical_pct);
  put(q, "achieved_occupancy_pct", d.occ.achieved_pct);
  if (!d.occ.limiters.empty()) {
    for (const char* l : {"registers", "shared_mem", "warps", "blocks", "barriers"}) {
      const bool limits = std::find(d.occ.limiters.begin(), d.occ.limiters.end(), l) != d.occ.limiters.end();
      q[std::string("limiter_") + l] = limits ? 1 : 0;
    }
  }
  const auto& m = d.memory;
  if (m.load_bytes_per_sector || m.store_bytes_per_sector) {
    // An access class with no traffic reports 0; only a used direction counts.
    double worst = 32;
    for (const auto& v : {m.load_bytes_per_sector, m.store_bytes_per_sector}) {
      if (v && *v > 0) worst = std::min(worst, *v);
    }
    q["min_bytes_per_sector"] = worst;
  }
  if (m.shared_load_conflict_pct || m.shared_store_conflict_pct) {
    q["shared_conflict_pct"] = std::max(m.shared_load_conflict_pct.value_or(0), m.shared_store_conflict_pct.value_or(0));
  }
  put(q, "l1_hit_pct", m.l1_hit_pct);
  put(q, "l2_hit_pct", m.l2_hit_pct);
  put(q, "arithmetic_intensity", d.roof.arithmetic_intensity);
  if (!d.tensor.instructions.empty()) {
    q["uses_tensor_cores"] = d.tensor.instructions == "none" ? 0 : 1;
    q["uses_wgmma"] = d.tensor.instructions == "wgmma" ? 1 : 0;
    q["uses_mma"] = d.tensor.instructions == "mma" ? 1 : 0;
  }
  for (const auto& s : d.issue.stalls) q["stall_" + s.reason + "_pct"] = s.share_pct;
  if (!d.issue.busiest_pipe.empty()) q["busiest_pipe_is_" + d.issue.busiest_pipe] = 1;
  return q;
}

bool is_known_quantity(std::string_view name) {
  if (std::find(fixed_names.begin(), fixed_names.end(), name) != fixed_names.end()) return true;
  const auto between = [&](std::string_view prefix, std::string_view suffix) {
    return name.size() > prefix.size() + suffix.size() && name.substr(0, prefix.size()) == prefix &&
           name.substr(name.size() - suffix.size()) == suffix;
  };
  return between("stall_", "_pct") || between("busiest_pipe_is_", "");
}

}  // namespace kopt::analyze
