#include "kernel/parameter_parser.h"

#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "kernel/declaration_syntax.h"

namespace kopt::kernel::detail {
namespace {

bool is_qualifier(const token& t) {
  return t.is("const") || t.is("volatile") || t.is("__restrict__") || t.is("__restrict") ||
         t.is("restrict") || t.is("__grid_constant__") || t.is("register");
}

std::vector<token> before_bracket(const std::vector<token>& tokens) {
  std::vector<token> kept;
  for (const token& t : tokens) {
    if (t.is("[")) break;
    kept.push_back(t);
  }
  return kept;
}

bool contains(std::span<const token> tokens, std::string_view spelling) {
  for (const token& t : tokens) {
    if (t.is(spelling)) return true;
  }
  return false;
}

// A word of the type or the name: an identifier, with `::`-qualified names kept whole.
struct word {
  std::string text;
  size_t first = 0;  // token indices it spans
  size_t last = 0;
};

// The words before any '[' or '(' (an array bound or a function pointer's parentheses).
std::vector<word> words_of(std::span<const token> tokens) {
  std::vector<word> words;
  bool glue = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const token& t = tokens[i];
    if (t.is("[") || t.is("(")) break;
    if (t.is("::")) {
      if (!words.empty() && words.back().last + 1 == i) {
        words.back().text += "::";
        words.back().last = i;
        glue = true;
      }
      continue;  // a leading `::` (global scope) adds nothing
    }
    if (t.is_identifier() && !is_qualifier(t)) {
      if (glue && !words.empty() && words.back().last + 1 == i) {
        words.back().text += t.text;
        words.back().last = i;
      } else {
        words.push_back({t.text, i, i});
      }
    }
    glue = false;
  }
  return words;
}

class parameter_builder {
 public:
  parameter_builder(std::span<const token> tokens, const parameter_context& context)
      : m_context(context), m_tokens(strip_attributes(tokens)) {
    // A default argument says nothing about the parameter's type.
    for (size_t i = 0; i < m_tokens.size(); ++i) {
      if (m_tokens[i].is("=")) {
        m_tokens.resize(i);
        break;
      }
    }
    m_line = m_tokens.empty() ? context.line : m_tokens.front().line;
  }

  parameter build() {
    if (m_tokens.empty()) fail_unnamed("(nothing)");
    if (contains(m_tokens, "...")) {
      fail_at("solve() is variadic (...): kopt needs a fixed list of named parameters");
    }
    find_name();
    const std::string spelled = spell(type_tokens());
    const std::string who = m_name.empty() ? fmt::format("{}", m_context.index + 1)
                                           : fmt::format("'{}'", m_name);
    if (contains(m_tokens, "&") || contains(m_tokens, "&&")) {
      fail(who, fmt::format("is a reference ({}): pass buffers as pointers (T*) and scalars "
                            "by value", spelled));
    }
    if (contains(m_tokens, "[")) {
      const std::string element = spell(before_bracket(type_tokens()));
      const std::string name = m_name.empty() ? "x" : m_name;
      fail(who, fmt::format("is an array ({} {}[]): declare it as a pointer, {}* {}", element,
                            name, element, name));
    }
    if (contains(m_tokens, "(")) {
      fail(who, "is a function pointer: kopt passes only device buffers and scalars");
    }
    if (contains(m_tokens, "<")) {
      fail(who, fmt::format("has a template type ({}): kopt passes plain element types only; "
                            "see the list below", spelled),
           supported_detail());
    }
    for (const char* keyword : {"struct", "class", "union", "enum"}) {
      if (contains(m_tokens, keyword)) {
        fail(who, fmt::format("is a {} ({}): kopt passes device buffers of plain element "
                              "types and scalars only", keyword, spelled),
             supported_detail());
      }
    }
    int stars = 0;
    for (const token& t : m_tokens) stars += t.is("*") ? 1 : 0;
    if (stars > 1) {
      fail(who, fmt::format("is a pointer to a pointer ({}): kopt allocates flat buffers; pass "
                            "one pointer per buffer", spelled));
    }
    if (m_name.empty() && !m_context.allow_unnamed) fail_unnamed(spelled);

    parameter result;
    result.index = m_context.index;
    result.name = m_name;
    result.spelled_type = spelled;
    result.is_pointer = stars == 1;
    result.line = m_line;
    result.element = lookup_element(who, spelled, result.is_pointer);
    if (result.is_pointer) {
      for (const token& t : m_tokens) {
        if (t.is("*")) break;
        if (t.is("const")) result.pointee_is_const = true;
      }
    }
    return result;
  }

 private:
  // The name is the last word, unless the words without it would not be a type
  // (`int` alone is an unnamed int; `unsigned N` is N of type unsigned).
  void find_name() {
    m_words = words_of(m_tokens);
    if (m_words.empty()) return;
    size_t last_star = m_tokens.size();
    for (size_t i = 0; i < m_tokens.size(); ++i) {
      if (m_tokens[i].is("*") || m_tokens[i].is("&") || m_tokens[i].is("&&")) last_star = i;
    }
    const word& last = m_words.back();
    bool is_name = false;
    if (last_star != m_tokens.size()) {
      is_name = last.first > last_star;
    } else {
      is_name = m_words.size() >= 2 && !find_element_type(joined_words(m_words.size()));
    }
    if (is_name) {
      m_name = last.text;
      m_name_token = last.first;
      m_words.pop_back();
    }
  }

  std::string joined_words(size_t count) const {
    std::string text;
    for (size_t i = 0; i < count; ++i) text += (i == 0 ? "" : " ") + m_words[i].text;
    return text;
  }

  std::vector<token> type_tokens() const {
    std::vector<token> kept;
    for (size_t i = 0; i < m_tokens.size(); ++i) {
      if (!m_name_token || i != *m_name_token) kept.push_back(m_tokens[i]);
    }
    return kept;
  }

  element_type lookup_element(const std::string& who, const std::string& spelled,
                              bool is_pointer) const {
    const std::string type_words = joined_words(m_words.size());
    if (type_words == "void") {
      fail(who, fmt::format("is a void pointer ({}): kopt needs the element type to allocate, "
                            "fill and compare the buffer; use a typed pointer such as float*",
                            spelled));
    }
    const auto element = find_element_type(type_words);
    if (!element) {
      fail(who, fmt::format("has type '{}', which kopt does not know: use one of the "
                            "supported element types", spelled),
           supported_detail());
    }
    if (!is_pointer && element->is_floating() && element->size_bytes < 4) {
      fail(who, fmt::format("is a {} scalar: kopt passes scalars as integers, float or "
                            "double; take a float and convert inside solve()", spelled));
    }
    return *element;
  }

  static std::string supported_detail() {
    return "supported element types (pointers to them are buffers; integers, float and "
           "double by value are scalars):\n" + supported_type_list();
  }

  [[noreturn]] void fail(const std::string& who, const std::string& problem,
                         const std::string& detail = {}) const {
    throw error(fmt::format("{}:{}: solve() parameter {} {}", m_context.file_label, m_line, who,
                            problem),
                detail);
  }

  [[noreturn]] void fail_at(const std::string& problem) const {
    throw error(fmt::format("{}:{}: {}", m_context.file_label, m_line, problem));
  }

  [[noreturn]] void fail_unnamed(const std::string& spelled) const {
    // One word that is no type at all is most often a macro that expands to the parameters.
    const bool one_unknown_word = m_tokens.size() == 1 && m_tokens[0].is_identifier() &&
                                  !find_element_type(m_tokens[0].text).has_value();
    if (one_unknown_word) {
      fail(fmt::format("{}", m_context.index + 1),
           fmt::format("is the single word {0}, which is no type: if {0} is a macro, write solve()'s "
                       "parameters out (kopt reads solve() as written, before the preprocessor)",
                       spelled));
    }
    fail(fmt::format("{}", m_context.index + 1),
         fmt::format("({}) has no name: kopt refers to buffers and dimensions by name; "
                     "name it",
                     spelled));
  }

  const parameter_context& m_context;
  std::vector<token> m_tokens;
  int m_line = 0;
  std::vector<word> m_words;  // type words, the name removed
  std::string m_name;
  std::optional<size_t> m_name_token;
};

}  // namespace

parameter parse_parameter(std::span<const token> tokens, const parameter_context& context) {
  return parameter_builder(tokens, context).build();
}

}  // namespace kopt::kernel::detail
