#include "kernel/declaration_syntax.h"

namespace kopt::kernel::detail {
namespace {

std::string_view closing_of(std::string_view open) {
  if (open == "(") return ")";
  if (open == "[") return "]";
  if (open == "{") return "}";
  return ">";
}

bool is_open(const token& t) { return t.is("(") || t.is("[") || t.is("{") || t.is("<"); }
bool is_close(const token& t) { return t.is(")") || t.is("]") || t.is("}") || t.is(">"); }

}  // namespace

size_t matching_close(std::span<const token> tokens, size_t open) {
  const std::string_view open_text = tokens[open].text;
  const std::string_view close_text = closing_of(open_text);
  int depth = 0;
  for (size_t i = open; i < tokens.size(); ++i) {
    if (tokens[i].is(open_text)) {
      ++depth;
    } else if (tokens[i].is(close_text) && --depth == 0) {
      return i;
    }
  }
  return tokens.size();
}

std::vector<token> strip_attributes(std::span<const token> tokens) {
  std::vector<token> kept;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const token& t = tokens[i];
    const bool has_next = i + 1 < tokens.size();
    if ((t.is("__attribute__") || t.is("__declspec") || t.is("alignas")) && has_next &&
        tokens[i + 1].is("(")) {
      i = matching_close(tokens, i + 1);
    } else if (t.is("[") && has_next && tokens[i + 1].is("[")) {
      // [[attr]] : the outer pair of square brackets encloses the whole attribute list.
      i = matching_close(tokens, i);
    } else {
      kept.push_back(t);
    }
  }
  return kept;
}

std::vector<std::vector<token>> split_top_level_commas(std::span<const token> tokens) {
  std::vector<std::vector<token>> parts(1);
  int depth = 0;
  for (const token& t : tokens) {
    if (is_open(t)) ++depth;
    if (is_close(t) && depth > 0) --depth;
    if (depth == 0 && t.is(",")) {
      parts.emplace_back();
    } else {
      parts.back().push_back(t);
    }
  }
  return parts;
}

std::string spell(std::span<const token> tokens) {
  std::string text;
  bool glue_next = false;
  for (const token& t : tokens) {
    const bool glue = glue_next || t.is("*") || t.is("::") || t.is("&") || t.is("&&") ||
                      t.is(",") || t.is("<") || t.is(">") || t.is("]") || t.is("[");
    if (!text.empty() && !glue) text += ' ';
    text += t.text;
    glue_next = t.is("::") || t.is("<") || t.is("[");
  }
  return text;
}

}  // namespace kopt::kernel::detail
