#include "tune/tune_order.h"

#include <numeric>
#include <random>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::tune {

const std::vector<std::string>& fixed_order_strategies() {
  static const std::vector<std::string> names = {"exhaustive", "random"};
  return names;
}

std::vector<std::size_t> tune_order(std::size_t count, const std::string& strategy, std::uint64_t seed) {
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (strategy == "exhaustive") return order;
  if (strategy == "random") {
    // Fisher-Yates with the engine's own draws, not std::shuffle, whose algorithm the standard
    // leaves to each library: the same seed gives the same order wherever kopt was built.
    std::mt19937_64 engine(seed);
    for (std::size_t i = count; i > 1; --i) std::swap(order[i - 1], order[engine() % i]);
    return order;
  }
  throw error(fmt::format("tune_order({}): not a fixed-order strategy: a bug in kopt", strategy));
}

}  // namespace kopt::tune
