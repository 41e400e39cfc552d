#include "loop/suggestion_ranking.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::loop {
namespace {

// The share of `tags` that `strategy` also lists (both normalized).
double overlap(const std::vector<std::string>& tags, const std::vector<std::string>& strategy) {
  if (tags.empty()) return 0;
  const auto shared = std::count_if(tags.begin(), tags.end(), [&](const std::string& t) {
    return std::find(strategy.begin(), strategy.end(), t) != strategy.end();
  });
  return static_cast<double>(shared) / static_cast<double>(tags.size());
}

}  // namespace

std::vector<ranked_suggestion> rank_suggestions(const std::vector<suggestion>& suggestions,
                                                const std::vector<memory::strategy_summary>& history,
                                                const std::set<std::string>& blocked_fingerprints,
                                                const std::string& backend, const std::string& scope_label) {
  std::vector<ranked_suggestion> ranked;
  for (const suggestion& s : suggestions) {
    ranked_suggestion r{s, 0, "", false, false};
    const std::vector<std::string> tags = memory::normalize_tags(s.tags);
    r.blocked = !tags.empty() && blocked_fingerprints.count(memory::strategy_fingerprint(backend, tags)) > 0;
    // [placed, unplaced]
    std::int64_t worked[2] = {0, 0}, failed[2] = {0, 0};
    for (const memory::strategy_summary& h : history) {
      const double share = overlap(tags, h.tags);
      if (share == 0) continue;
      const int kind = h.unplaced ? 1 : 0;
      worked[kind] += h.positive;
      failed[kind] += h.negative + h.rejected;
      const double weight = h.unplaced ? unplaced_evidence_weight : 1.0;
      r.evidence += weight * share * static_cast<double>(h.positive - h.negative - h.rejected);
    }
    std::vector<std::string> notes;
    if (worked[0] + failed[0] > 0) {
      notes.push_back(fmt::format("strategies sharing its tags worked {}x, were slower or failed {}x before on {}",
                                  worked[0], failed[0], scope_label));
    }
    if (worked[1] + failed[1] > 0) {
      r.imported = true;
      notes.push_back(fmt::format("imported: worked {}x, were slower or failed {}x where the bottleneck or "
                                  "architecture was not recorded (weaker evidence)",
                                  worked[1], failed[1]));
    }
    r.memory_note = join(notes, "; ");
    ranked.push_back(std::move(r));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const ranked_suggestion& a, const ranked_suggestion& b) {
    if (a.blocked != b.blocked) return !a.blocked;
    if (a.evidence != b.evidence) return a.evidence > b.evidence;
    return a.entry.score > b.entry.score;
  });
  return ranked;
}

}  // namespace kopt::loop
