#include "memory/memory_copy.h"

#include <algorithm>

namespace kopt::memory {

memory_copy_counts copy_memory(const memory_store& from, memory_store& to) {
  memory_copy_counts counts;
  const std::vector<bool> added = to.record_all(from.all());
  counts.outcomes_added = static_cast<std::size_t>(std::count(added.begin(), added.end(), true));
  counts.outcomes_already_there = added.size() - counts.outcomes_added;
  counts.offers_added = to.record_offers(from.offered_files());
  counts.ledger = ledger_store(from).copy_to(ledger_store(to));
  return counts;
}

}  // namespace kopt::memory
