#pragma once
// The order in which kopt tune measures the allowed configurations, the strategy's whole choice:
// exhaustive takes them as the annotations list them; random takes a shuffle fixed by the seed,
// so that a budget samples the space evenly and a repeated tune measures the same ones.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kopt::tune {

// The strategies whose order is fixed before anything is measured: "exhaustive" and "random".
const std::vector<std::string>& fixed_order_strategies();

// Indices into the allowed configurations, in the order to measure them, for one of
// fixed_order_strategies() (tune/tune_strategy.h checks the name the user gave).
std::vector<std::size_t> tune_order(std::size_t count, const std::string& strategy, std::uint64_t seed);

}  // namespace kopt::tune
