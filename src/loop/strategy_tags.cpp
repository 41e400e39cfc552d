#include "loop/strategy_tags.h"

#include "core/text.h"

namespace kopt::loop {
namespace {

bool is_heading(std::string_view line) { return !line.empty() && line.front() == '#'; }

// "- a, b" -> "a, b"; "" when the line is not a list item.
std::string_view item_text(std::string_view line) {
  const std::string_view text = trim(line);
  if (text.size() < 2 || (text[0] != '-' && text[0] != '*') || text[1] != ' ') return {};
  return text.substr(2);
}

void add_comma_separated(std::string_view item, std::vector<std::string>& tags) {
  std::string text(item);
  std::erase(text, '`');
  std::string_view rest = text;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view tag = trim(rest.substr(0, comma));
    if (!tag.empty()) tags.emplace_back(tag);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
}

}  // namespace

std::vector<std::string> parse_strategy_tags(std::string_view proposal_markdown) {
  bool inside = false;
  std::vector<std::string> tags;
  for (const std::string& raw : split_lines(proposal_markdown)) {
    const std::string_view line = trim(raw);
    if (is_heading(line)) {
      inside = line == strategy_tags_heading;
      continue;
    }
    if (inside) add_comma_separated(item_text(line), tags);
  }
  return tags;
}

}  // namespace kopt::loop
