#include "loop/diagnosis_digest.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::loop {
namespace {

// node[key], or null when node is not an object or lacks it (a const json's [] must not be
// asked for a missing key).
const json& member(const json& node, const char* key) {
  static const json none = nullptr;
  return node.is_object() && node.contains(key) ? node[key] : none;
}

std::optional<double> number_at(const json& node, const char* key) {
  if (!node.is_object() || !node.contains(key) || !node[key].is_number()) return std::nullopt;
  return node[key].get<double>();
}

const json& slowest_launch(const json& kernels) {
  const json* slowest = &kernels.front();
  for (const json& k : kernels) {
    if (number_at(member(k, "launch"), "duration_ns").value_or(0) > number_at(member(*slowest, "launch"), "duration_ns").value_or(0)) {
      slowest = &k;
    }
  }
  return *slowest;
}

}  // namespace

diagnosis_digest digest_analysis(const json& document, const std::string& where) {
  if (!document.contains("kernels") || !document["kernels"].is_array() || document["kernels"].empty()) {
    throw error(fmt::format("{} holds no analysed kernel launch: run the iteration again", where));
  }
  const json& k = slowest_launch(document["kernels"]);
  diagnosis_digest d;
  d.kernel_name = k.value("kernel_name", "");
  d.bottleneck = k.value("class", "");
  d.at_hardware_limit = k.value("at_hardware_limit", false);
  d.reason = k.value("reason", "");
  d.sm_pct = number_at(member(k, "speed_of_light"), "sm_pct");
  d.memory_pct = number_at(member(k, "speed_of_light"), "memory_pct");
  d.duration_ns = number_at(member(k, "launch"), "duration_ns");
  const json& occupancy = member(k, "occupancy");
  if (occupancy.is_object()) d.occupancy_limiters = occupancy.value("limiters", std::vector<std::string>{});
  const json& stalls = member(member(k, "issue"), "stalls");
  if (stalls.is_array()) {
    for (const json& s : stalls) {
      if (d.top_stalls.size() == 3) break;
      d.top_stalls.push_back(fmt::format("{} {:.0f} %", s.value("reason", ""), s.value("share_pct", 0.0)));
    }
  }
  if (member(k, "recommendations").is_array()) {
    for (const json& r : member(k, "recommendations")) {
      d.suggestions.push_back({r.value("id", ""), r.value("title", ""), r.value("score", 0.0), r.value("why", ""),
                               r.value("tags", std::vector<std::string>{})});
    }
  }
  return d;
}

}  // namespace kopt::loop
