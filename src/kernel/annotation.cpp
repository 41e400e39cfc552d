#include "kernel/annotation.h"

#include <algorithm>
#include <cmath>

#include <cstdlib>
#include <span>

#include <fmt/format.h>

#include "core/enum_names.h"
#include "core/error.h"
#include "core/text.h"
#include "kernel/declaration_syntax.h"

namespace kopt::kernel {
namespace {

constexpr std::string_view annotation_marker = "kopt:";
constexpr std::string_view expected_items =
    "expected NAME[COUNT], in(...), out(...), inout(...), range(...), values(...), normal(...), tune(...) or "
    "restrict(...)";

struct annotation_text {
  std::string text;  // after "kopt:", to the end of its line
  int line = 0;
};

// Decoration before the text of a comment line: `//!`, `///`, the `*` of a doc comment.
std::string_view strip_decoration(std::string_view line) {
  line = trim(line);
  while (!line.empty() && (line.front() == '*' || line.front() == '/' || line.front() == '!')) {
    line.remove_prefix(1);
  }
  return trim(line);
}

// The annotation lines of a comment: a `//` comment whose text starts with `kopt:`, or each
// line of a `/* */` comment that does. Prose around them in the same block is left alone.
std::vector<annotation_text> annotations_in(const comment& c) {
  std::vector<annotation_text> found;
  const std::vector<std::string> lines = c.is_block ? split_lines(c.text)
                                                    : std::vector<std::string>{c.text};
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string_view body = strip_decoration(lines[k]);
    if (body.substr(0, annotation_marker.size()) != annotation_marker) continue;
    found.push_back({std::string(body.substr(annotation_marker.size())), c.line + static_cast<int>(k)});
  }
  return found;
}

bool is_floating_literal(std::string_view text) {
  if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return false;
  return text.find_first_of(".eE") != std::string_view::npos;
}

class item_parser {
 public:
  item_parser(const annotation_text& source, std::string_view file_label, annotation_set& out)
      : m_source(source), m_file(file_label), m_out(out) {}

  void run() {
    const token_stream stream = tokenize(m_source.text, m_source.line);
    const std::span<const token> tokens = stream.tokens;
    size_t pos = 0;
    while (pos < tokens.size()) {
      const token& t = tokens[pos];
      if (t.is(",")) {
        ++pos;
        continue;
      }
      const bool has_next = pos + 1 < tokens.size();
      if (!t.is_identifier() || !has_next || !(tokens[pos + 1].is("[") || tokens[pos + 1].is("("))) {
        fail(t.line, fmt::format("malformed kopt annotation at '{}': {}", t.text, expected_items));
      }
      const size_t close = detail::matching_close(tokens, pos + 1);
      if (close == tokens.size()) {
        fail(t.line, fmt::format("malformed kopt annotation: the '{}' after {} is never closed",
                                 tokens[pos + 1].text, t.text));
      }
      const auto inside = tokens.subspan(pos + 2, close - pos - 2);
      if (tokens[pos + 1].is("[")) {
        add_size(t, inside);
      } else {
        add_call(t, inside, slice(tokens.subspan(pos, close - pos + 1)));
      }
      pos = close + 1;
    }
  }

 private:
  std::string slice(std::span<const token> tokens) const {
    if (tokens.empty()) return {};
    const size_t begin = tokens.front().offset;
    const size_t end = tokens.back().offset + tokens.back().text.size();
    return m_source.text.substr(begin, end - begin);
  }

  void add_size(const token& name, std::span<const token> inside) {
    const std::string written = fmt::format("{}[{}]", name.text, slice(inside));
    if (inside.empty()) {
      fail(name.line, fmt::format("kopt annotation {} has no element count: write {}[COUNT], "
                                  "e.g. {}[N]", written, name.text, name.text));
    }
    try {
      size_item item{name.text, int_expression::parse(inside, slice(inside)), name.line};
      if (const auto* first = m_out.size_of(name.text)) duplicate(item.line, "size", name.text, first->line);
      m_out.sizes.push_back(std::move(item));
    } catch (const expression_error& e) {
      fail(name.line, fmt::format("kopt annotation {}: {}", written, e.what()));
    }
  }

  void add_call(const token& name, std::span<const token> inside, const std::string& written) {
    const auto args = inside.empty() ? std::vector<std::vector<token>>{}
                                     : detail::split_top_level_commas(inside);
    for (const auto& arg : args) {
      if (arg.empty()) fail(name.line, fmt::format("kopt annotation {} has an empty argument", written));
    }
    const std::string& item = name.text;
    if (item == "in" || item == "out" || item == "inout") {
      const buffer_role role = item == "in" ? buffer_role::in
                               : item == "out" ? buffer_role::out : buffer_role::inout;
      if (args.empty()) fail(name.line, fmt::format("kopt annotation {} names no buffer: write {}(C)", written, item));
      for (const auto& arg : args) {
        const std::string buffer = buffer_name(arg, written);
        if (const auto* first = m_out.role_of(buffer)) duplicate(name.line, "role", buffer, first->line);
        m_out.roles.push_back({buffer, role, name.line});
      }
      return;
    }
    if (item == "tune") return add_tune(name, args, written);
    if (item == "restrict") return add_restriction(name, inside, written);
    values_item values;
    values.text = written;
    values.line = name.line;
    if (item == "range" || item == "normal") {
      values.kind = item == "range" ? distribution_kind::uniform : distribution_kind::normal;
      if (args.size() != 3) {
        fail(name.line, fmt::format("kopt annotation {} takes 3 arguments ({}), found {}: write {}",
                                    written, item == "range" ? "NAME, LO, HI" : "NAME, MEAN, STD",
                                    args.size(), item == "range" ? "range(idx, 0, N)" : "normal(x, 0, 0.5)"));
      }
    } else if (item == "values") {
      values.kind = distribution_kind::choice;
      if (args.size() < 2) {
        fail(name.line, fmt::format("kopt annotation {} takes a buffer name and at least one "
                                    "value: write values(mask, 0, 1)", written));
      }
    } else {
      fail(name.line, fmt::format("unknown kopt annotation item '{}(...)': {}", item, expected_items));
    }
    values.buffer = buffer_name(args[0], written);
    for (size_t i = 1; i < args.size(); ++i) values.args.push_back(number(args[i], written));
    if (const auto* first = m_out.values_of(values.buffer)) {
      duplicate(name.line, "value distribution", values.buffer, first->line);
    }
    m_out.values.push_back(std::move(values));
  }

  void add_tune(const token& name, const std::vector<std::vector<token>>& args, const std::string& written) {
    if (args.size() < 2) {
      fail(name.line, fmt::format("kopt annotation {} takes a macro name and at least one value: write "
                                  "tune(BLOCK, 64, 128, 256)",
                                  written));
    }
    if (args[0].size() != 1 || !args[0][0].is_identifier()) {
      fail(name.line, fmt::format("kopt annotation {}: expected the macro's name first, found '{}'", written,
                                  slice(args[0])));
    }
    tune_item tune{args[0][0].text, {}, written, name.line};
    if (const tune_item* first = m_out.tune_of(tune.name)) {
      fail(name.line,
           fmt::format("second tune() of {} in kopt annotations (the first is at line {}): keep one",
                       tune.name, first->line));
    }
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string text = slice(args[i]);
      int64_t value = 0;
      try {
        // A constant: no name has a value here.
        value = int_expression::parse(args[i], text).evaluate([](std::string_view) { return std::nullopt; });
      } catch (const expression_error& e) {
        fail(name.line, fmt::format("kopt annotation {}: the value {} is not an integer constant ({})",
                                    written, text, e.what()));
      }
      if (std::find(tune.values.begin(), tune.values.end(), value) != tune.values.end()) {
        fail(name.line, fmt::format("kopt annotation {}: the value {} is listed twice", written, value));
      }
      tune.values.push_back(value);
    }
    m_out.tunes.push_back(std::move(tune));
  }

  void add_restriction(const token& name, std::span<const token> inside, const std::string& written) {
    if (inside.empty()) {
      fail(name.line,
           fmt::format("kopt annotation {} has no condition: write restrict(BLOCK * VEC <= 1024)", written));
    }
    try {
      m_out.restrictions.push_back({int_expression::parse(inside, slice(inside)), name.line});
    } catch (const expression_error& e) {
      fail(name.line, fmt::format("kopt annotation {}: {}", written, e.what()));
    }
  }

  std::string buffer_name(const std::vector<token>& arg, const std::string& written) const {
    if (arg.size() != 1 || !arg[0].is_identifier()) {
      fail(arg[0].line, fmt::format("kopt annotation {}: expected a buffer name, found '{}'",
                                    written, slice(arg)));
    }
    return arg[0].text;
  }

  annotation_number number(const std::vector<token>& arg, const std::string& written) const {
    annotation_number result;
    result.text = slice(arg);
    const bool signed_literal = arg.size() == 2 && (arg[0].is("-") || arg[0].is("+"));
    const token& last = arg.back();
    if ((arg.size() == 1 || signed_literal) && last.kind == token_kind::number &&
        is_floating_literal(last.text)) {
      std::string digits;
      for (const char c : last.text) {
        if (c != '\'') digits += c;
      }
      char* end = nullptr;
      const double value = std::strtod(digits.c_str(), &end);
      if (end == nullptr || *end != '\0') {
        fail(last.line, fmt::format("kopt annotation {}: '{}' is not a number", written, last.text));
      }
      if (!std::isfinite(value)) {
        fail(last.line, fmt::format("kopt annotation {}: '{}' is beyond the range of a double: give a finite "
                                    "bound",
                                    written, last.text));
      }
      result.floating = arg[0].is("-") ? -value : value;
      return result;
    }
    try {
      result.integer = int_expression::parse(arg, result.text);
    } catch (const expression_error& e) {
      fail(arg[0].line, fmt::format("kopt annotation {}: {}", written, e.what()));
    }
    return result;
  }

  [[noreturn]] void duplicate(int line, std::string_view what, const std::string& buffer,
                              int first_line) const {
    fail(line, fmt::format("second {} for buffer {} in kopt annotations (the first is at line "
                           "{}): keep one", what, buffer, first_line));
  }

  [[noreturn]] void fail(int line, const std::string& problem) const {
    throw error(fmt::format("{}:{}: {}", m_file, line, problem));
  }

  const annotation_text& m_source;
  std::string_view m_file;
  annotation_set& m_out;
};

template <typename Item>
const Item* find_item(const std::vector<Item>& items, std::string_view buffer) {
  for (const auto& item : items) {
    if (item.buffer == buffer) return &item;
  }
  return nullptr;
}

const tune_item* find_tune(const std::vector<tune_item>& items, std::string_view name) {
  for (const auto& item : items) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

}  // namespace

std::string_view to_string(buffer_role role) { return enumerator_name(role); }

std::string_view to_string(distribution_kind kind) { return enumerator_name(kind); }

const size_item* annotation_set::size_of(std::string_view buffer) const { return find_item(sizes, buffer); }
const role_item* annotation_set::role_of(std::string_view buffer) const { return find_item(roles, buffer); }
const values_item* annotation_set::values_of(std::string_view buffer) const {
  return find_item(values, buffer);
}
const tune_item* annotation_set::tune_of(std::string_view name) const {
  return find_tune(tunes, name);
}

annotation_set parse_annotations(const std::vector<comment>& comments, std::string_view file_label) {
  annotation_set result;
  for (const comment& c : comments) {
    for (const auto& text : annotations_in(c)) item_parser(text, file_label, result).run();
  }
  return result;
}

}  // namespace kopt::kernel
