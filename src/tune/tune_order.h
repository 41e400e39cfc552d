#pragma once
// The order in which kopt tune measures the allowed configurations, the strategy's whole choice:
// exhaustive takes them as the annotations list them; random takes a shuffle fixed by the seed,
// so that a budget samples the space evenly and a repeated tune measures the same ones.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kopt::tune {

// The strategies kopt tune knows, for --strategy's help and its error.
std::vector<std::string> tune_strategies();

// Indices into the allowed configurations, in the order to measure them. Throws kopt::error
// for a strategy it does not know, naming the ones it does.
std::vector<std::size_t> tune_order(std::size_t count, const std::string& strategy, std::uint64_t seed);

}  // namespace kopt::tune
