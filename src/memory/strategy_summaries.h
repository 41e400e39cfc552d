#pragma once
// A strategy's history as the memory's readers show it (kopt memory, the MCP server): the
// fields its document shows (to_document; `unplaced` is the ranking's, not shown), and the
// order "what worked first".

#include <vector>

#include "core/document.h"
#include "memory/memory_store.h"

namespace kopt::memory {

BOOST_DESCRIBE_STRUCT(strategy_summary, (),
                      (fingerprint, backend, tags, positive, negative, neutral, inconclusive, rejected,
                       last_outcome, last_recorded_at))

// More successes than failures first (positive − negative − rejected), then more positives.
void rank_by_success(std::vector<strategy_summary>& summaries);

}  // namespace kopt::memory
