#include "memory/strategy_summaries.h"

#include <algorithm>

namespace kopt::memory {

void rank_by_success(std::vector<strategy_summary>& list) {
  std::stable_sort(list.begin(), list.end(), [](const strategy_summary& a, const strategy_summary& b) {
    const auto score = [](const strategy_summary& s) { return s.positive - s.negative - s.rejected; };
    if (score(a) != score(b)) return score(a) > score(b);
    return a.positive > b.positive;
  });
}

}  // namespace kopt::memory
