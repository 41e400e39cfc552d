#pragma once
// The analysis ranks the knowledge base's suggestions by how well their conditions match the
// diagnosis: a rule's guess. The memory holds measurements: what happened when strategies
// sharing a suggestion's tags were tried before on the same backend, architecture and
// bottleneck, on any kernel. Measurements come first: suggestions are ordered by their net
// evidence (successes minus failures, each weighted by the share of the suggestion's tags the
// strategy used), and the analysis's score orders those with equal evidence (all of them, with
// an empty memory). A suggestion whose exact strategy is blocked goes last, marked. This is
// how the tenth kernel profits from the first nine.
// Outcomes seen where the bottleneck or architecture is unknown (imported from the Python
// toolkit, which keeps neither) count as weaker evidence: unplaced_evidence_weight of an exact
// match's (a provisional number, docs/memory.md), and the suggestion says "imported".

#include <set>
#include <string>
#include <vector>

#include "loop/diagnosis_digest.h"
#include "memory/memory_store.h"

namespace kopt::loop {

inline constexpr double unplaced_evidence_weight = 0.5;

struct ranked_suggestion {
  suggestion entry;
  double evidence = 0;           // net successes of strategies sharing its tags (0: no history)
  std::string memory_note;       // "worked 2x, slower 1x before on dram-bound cuda (sm_90a)"; "" when no history
  bool blocked = false;          // its exact strategy was negative or rejected in this scope
  bool imported = false;         // some of its evidence is unplaced (strategy_summary::unplaced)
};

std::vector<ranked_suggestion> rank_suggestions(const std::vector<suggestion>& suggestions,
                                                const std::vector<memory::strategy_summary>& history,
                                                const std::set<std::string>& blocked_fingerprints,
                                                const std::string& backend, const std::string& scope_label);

}  // namespace kopt::loop
