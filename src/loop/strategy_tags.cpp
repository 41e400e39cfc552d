#include "loop/strategy_tags.h"

#include "core/text.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::loop {
namespace {

bool is_heading(std::string_view line) { return !line.empty() && line.front() == '#'; }

// "- a, b" -> "a, b"; "" when the line is not a list item.
std::string_view item_text(std::string_view line) {
  const std::string_view text = trim(line);
  if (text.size() < 2 || (text[0] != '-' && text[0] != '*') || text[1] != ' ') return {};
  return text.substr(2);
}

}  // namespace

std::vector<std::string> parse_strategy_tags(std::string_view proposal_markdown) {
  static const std::string heading = to_lower(strategy_tags_heading);
  bool inside = false;
  std::vector<std::string> tags;
  for (const std::string& raw : split_lines(proposal_markdown)) {
    const std::string_view line = trim(raw);
    if (is_heading(line)) {
      inside = to_lower(line) == heading;
      continue;
    }
    if (!inside) continue;
    std::string tag(trim(item_text(line)));
    std::erase(tag, '`');
    if (!tag.empty()) tags.push_back(std::move(tag));
  }
  return tags;
}

std::vector<std::string> strategy_of_proposal(std::string_view proposal_markdown) {
  std::vector<std::string> tags = memory::normalize_tags(parse_strategy_tags(proposal_markdown));
  if (tags.empty()) tags.emplace_back(unlabeled_strategy_tag);
  return tags;
}

bool names_no_strategy(const std::vector<std::string>& tags) {
  return tags.size() == 1 && tags.front() == unlabeled_strategy_tag;
}

std::string with_strategy_tags(std::string_view proposal_markdown, const std::vector<std::string>& tags) {
  static const std::string heading = to_lower(strategy_tags_heading);
  std::string out;
  bool inside = false;
  bool written = false;
  const auto write_tags = [&] {
    for (const std::string& tag : tags) out += "- " + tag + "\n";
    written = true;
  };
  for (const std::string& raw : split_lines(proposal_markdown)) {
    const std::string_view line = trim(raw);
    if (is_heading(line)) {
      if (inside) out += "\n";
      inside = to_lower(line) == heading;
      out += raw + "\n";
      if (inside) write_tags();
      continue;
    }
    if (inside && (!item_text(line).empty() || line.empty())) continue;  // the old list goes
    out += raw + "\n";
  }
  if (!written) {
    out += "\n" + std::string(strategy_tags_heading) + "\n";
    write_tags();
  }
  return out;
}

}  // namespace kopt::loop
