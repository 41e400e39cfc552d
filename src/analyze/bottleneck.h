#pragma once
// kopt's bottleneck classes, decided in this order (first match wins); see docs/analyze.md.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::analyze {

enum class bottleneck { launch, occupancy, latency, dram, l2, l1, compute, mixed };

std::string_view to_string(bottleneck b);
std::optional<bottleneck> parse_bottleneck(std::string_view name);
// The class a user named on the command line; throws kopt::error listing the classes otherwise.
bottleneck bottleneck_named(const std::string& name);
const std::vector<bottleneck>& all_bottlenecks();

}  // namespace kopt::analyze
