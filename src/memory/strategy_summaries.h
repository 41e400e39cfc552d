#pragma once
// A strategy's history as the memory's readers show it (kopt memory, the MCP server): its
// JSON form, and the order "what worked first".

#include <vector>

#include "core/json_io.h"
#include "memory/memory_store.h"

namespace kopt::memory {

json to_json(const strategy_summary& summary);

// More successes than failures first (positive − negative − rejected), then more positives.
void rank_by_success(std::vector<strategy_summary>& summaries);

}  // namespace kopt::memory
