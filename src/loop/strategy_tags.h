#pragma once
// The strategy an agent says it tried: the items of the "## Strategy tags" list in the
// iteration's optimization_proposal.md, read as the Python toolkit reads them, so that proposals
// written for it keep working and name the same strategies (the same fingerprints).

#include <string>
#include <string_view>
#include <vector>

namespace kopt::loop {

inline constexpr std::string_view strategy_tags_heading = "## Strategy tags";

// The toolkit's tag for a proposal whose list is empty: such a strategy is still remembered.
inline constexpr std::string_view unlabeled_strategy_tag = "unlabeled_strategy";

// The tags listed under the heading (its case does not matter), up to the next heading: one
// per "- " or "* " item, the whole item ("- a, b" is the one tag "a, b", which normalizes to
// "a_b", as in the toolkit). Backquotes are dropped; nothing else is normalized here. No
// heading or an empty list: empty.
std::vector<std::string> parse_strategy_tags(std::string_view proposal_markdown);

// The strategy of a proposal as the memory keys it: its tags normalized
// (memory::normalize_tags), or unlabeled_strategy_tag alone when it lists none.
std::vector<std::string> strategy_of_proposal(std::string_view proposal_markdown);

// The proposal with its "## Strategy tags" list replaced by `tags` (the heading added at the end
// when it has none): how kopt names a strategy it knows, as an agent would have written it.
std::string with_strategy_tags(std::string_view proposal_markdown, const std::vector<std::string>& tags);

// Whether `tags` (normalized) are unlabeled_strategy_tag alone: remembered, never blocked (a
// version without tags would otherwise be rejected unmeasured after one such failure).
bool names_no_strategy(const std::vector<std::string>& tags);

}  // namespace kopt::loop
