#include "analyze/bottleneck.h"

#include <array>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"

namespace kopt::analyze {
namespace {

constexpr std::array<std::string_view, 8> names = {"launch", "occupancy", "latency", "dram",
                                                   "l2",     "l1",        "compute", "mixed"};

}  // namespace

std::string_view to_string(bottleneck b) { return names[static_cast<size_t>(b)]; }

std::optional<bottleneck> parse_bottleneck(std::string_view name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<bottleneck>(i);
  }
  return std::nullopt;
}

bottleneck bottleneck_named(const std::string& name) {
  if (const auto b = parse_bottleneck(name)) return *b;
  std::vector<std::string> known;
  for (const auto b : all_bottlenecks()) known.emplace_back(to_string(b));
  throw error(fmt::format("unknown class \"{}\": use one of {}", name, join(known, ", ")));
}

const std::vector<bottleneck>& all_bottlenecks() {
  static const std::vector<bottleneck> all = {bottleneck::launch,  bottleneck::occupancy,
                                              bottleneck::latency, bottleneck::dram,
                                              bottleneck::l2,      bottleneck::l1,
                                              bottleneck::compute, bottleneck::mixed};
  return all;
}

}  // namespace kopt::analyze
