#pragma once
// The strategy an agent says it tried: the items of the "## Strategy tags" list in the
// iteration's optimization_proposal.md, as the Python toolkit reads them, so that proposals
// written for it keep working.

#include <string>
#include <string_view>
#include <vector>

namespace kopt::loop {

inline constexpr std::string_view strategy_tags_heading = "## Strategy tags";

// The tags listed under the heading, up to the next heading: one per "- " or "* " item, and
// items holding several tags separated by commas. Backquotes are dropped; nothing is
// normalized here (memory::normalize_tags does that). No heading or an empty list: empty.
std::vector<std::string> parse_strategy_tags(std::string_view proposal_markdown);

}  // namespace kopt::loop
