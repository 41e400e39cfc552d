#include "tune/ordered_proposer.h"

#include <algorithm>

namespace kopt::tune {

ordered_proposer::ordered_proposer(std::size_t count, const std::string& strategy, std::uint64_t seed)
    : m_order(tune_order(count, strategy, seed)) {}

std::optional<std::size_t> ordered_proposer::next(const std::vector<measured_point>& so_far) {
  for (const std::size_t index : m_order) {
    const bool measured =
        std::any_of(so_far.begin(), so_far.end(), [&](const measured_point& p) { return p.index == index; });
    if (!measured) return index;
  }
  return std::nullopt;
}

}  // namespace kopt::tune
