#include "kernel/signature.h"

#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "kernel/declaration_syntax.h"
#include "kernel/parameter_parser.h"

namespace kopt::kernel {
namespace {

using detail::matching_close;

enum class scope_kind { extern_c, extern_cxx, ns };

// One `solve(` at namespace scope: a declaration or a definition.
struct occurrence {
  int line = 0;
  bool is_definition = false;
  bool c_linkage = false;
  std::vector<token> parameter_tokens;  // between the parentheses
};

bool is_extern_c(std::span<const token> tokens, size_t i) {
  return i + 1 < tokens.size() && tokens[i].is("extern") &&
         tokens[i + 1].kind == token_kind::string_literal && tokens[i + 1].text == "\"C\"";
}

// Walks the file's namespace-scope declarations, skipping function bodies and class bodies.
class solve_finder {
 public:
  solve_finder(std::span<const token> tokens, std::string_view file_label)
      : m_tokens(tokens), m_file(file_label) {}

  std::vector<occurrence> run() {
    size_t start = 0;
    for (size_t i = 0; i < m_tokens.size(); ++i) {
      const token& t = m_tokens[i];
      if (t.is(";")) {
        examine(start, i, false);
        start = i + 1;
      } else if (t.is("{")) {
        if (const auto scope = scope_opened_by(start, i)) {
          m_scopes.push_back(*scope);
        } else {
          examine(start, i, true);
          i = matching_close(m_tokens, i);  // a body or an initializer: nothing for kopt
        }
        start = i + 1;
      } else if (t.is("}")) {
        if (!m_scopes.empty()) m_scopes.pop_back();
        start = i + 1;
      }
    }
    if (start < m_tokens.size()) examine(start, m_tokens.size(), false);  // a statement the file cut off
    return std::move(m_found);
  }

 private:
  std::optional<scope_kind> scope_opened_by(size_t start, size_t end) const {
    const auto statement = m_tokens.subspan(start, end - start);
    if (statement.size() == 2 && statement[0].is("extern") &&
        statement[1].kind == token_kind::string_literal) {
      return statement[1].text == "\"C\"" ? scope_kind::extern_c : scope_kind::extern_cxx;
    }
    size_t first = 0;
    if (!statement.empty() && statement[0].is("inline")) first = 1;
    if (statement.size() > first && statement[first].is("namespace")) {
      for (const token& t : statement) {
        if (t.is("(") || t.is("=")) return std::nullopt;
      }
      return scope_kind::ns;
    }
    return std::nullopt;
  }

  bool inside_extern_c() const {
    for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
      if (*it == scope_kind::extern_c) return true;
      if (*it == scope_kind::extern_cxx) return false;
    }
    return false;
  }

  // The statement [start, end) is a declaration of solve when `solve (` appears outside any
  // brackets and only specifiers precede it.
  void examine(size_t start, size_t end, bool ends_with_brace) {
    size_t name = end;
    int depth = 0;
    for (size_t i = start; i + 1 < end; ++i) {
      const token& t = m_tokens[i];
      if (t.is("(") || t.is("[") || t.is("<")) ++depth;
      if ((t.is(")") || t.is("]") || t.is(">")) && depth > 0) --depth;
      if (depth == 0 && t.is("solve") && m_tokens[i + 1].is("(")) {
        name = i;
        break;
      }
    }
    if (name == end) return;
    const size_t close = matching_close(m_tokens, name + 1);
    if (close >= end) {
      if (!m_unterminated_line) m_unterminated_line = m_tokens[name].line;
      return;
    }

    bool c_linkage = inside_extern_c();
    bool returns_void = false;
    const auto prefix = detail::strip_attributes(m_tokens.subspan(start, name - start));
    for (size_t i = 0; i < prefix.size(); ++i) {
      const token& t = prefix[i];
      if (is_extern_c(prefix, i)) {
        c_linkage = true;
        ++i;
      } else if (t.kind == token_kind::string_literal) {
        c_linkage = false;  // extern "C++"
      } else if (!t.is_identifier()) {
        return;  // an expression (a call, an initializer), not a declaration
      } else if (t.is("void")) {
        returns_void = true;
      } else if (t.is("__global__")) {
        fail(m_tokens[name].line, "solve() is a __global__ kernel: kopt calls solve() on the "
                                  "host; launch your kernel from a host function "
                                  "extern \"C\" void solve(...)");
      } else if (t.is("static")) {
        fail(m_tokens[name].line, "solve() is static, so the built library does not export "
                                  "it: remove `static`");
      }
    }
    if (prefix.empty()) return;  // a bare call `solve(...)`, e.g. inside a macro
    if (!returns_void) {
      fail(m_tokens[name].line, fmt::format("solve() must return void, but is declared as "
                                            "'{} solve(...)': write extern \"C\" void solve(...)",
                                            detail::spell(prefix)));
    }
    occurrence found;
    found.line = m_tokens[name].line;
    found.is_definition = ends_with_brace;
    found.c_linkage = c_linkage;
    found.parameter_tokens.assign(m_tokens.begin() + static_cast<std::ptrdiff_t>(name + 2),
                                  m_tokens.begin() + static_cast<std::ptrdiff_t>(close));
    m_found.push_back(std::move(found));
  }

  [[noreturn]] void fail(int line, const std::string& problem) const {
    throw error(fmt::format("{}:{}: {}", m_file, line, problem));
  }

  std::span<const token> m_tokens;
  std::string_view m_file;
  std::vector<scope_kind> m_scopes;
  std::vector<occurrence> m_found;

 public:
  // The line of a `solve(` whose parameter list never closes, if there was one.
  std::optional<int> m_unterminated_line;
};

std::vector<parameter> parse_parameters(const occurrence& found, std::string_view file_label) {
  std::vector<parameter> parameters;
  const auto& tokens = found.parameter_tokens;
  if (tokens.empty() || (tokens.size() == 1 && tokens[0].is("void"))) return parameters;
  const auto pieces = detail::split_top_level_commas(tokens);
  for (size_t i = 0; i < pieces.size(); ++i) {
    const detail::parameter_context context{file_label, static_cast<int>(i), found.line,
                                            !found.is_definition};
    parameters.push_back(detail::parse_parameter(pieces[i], context));
  }
  return parameters;
}

// What must agree between a declaration and the definition: the element type, pointer or
// not, and the pointee's constness (restrict and top-level const may differ, as in C).
std::string shape_of(const parameter& p) {
  return fmt::format("{}{}{}", p.pointee_is_const ? "const " : "", p.element.name,
                     p.is_pointer ? "*" : "");
}

// A declaration must have the definition's parameter types (names may differ, as in C).
void check_agreement(const occurrence& declaration, const std::vector<parameter>& declared,
                     const occurrence& definition, const std::vector<parameter>& defined,
                     std::string_view file_label) {
  std::string difference;
  if (declared.size() != defined.size()) {
    difference = fmt::format("{} parameters vs {}", declared.size(), defined.size());
  } else {
    for (size_t i = 0; i < declared.size() && difference.empty(); ++i) {
      if (shape_of(declared[i]) != shape_of(defined[i])) {
        difference = fmt::format("parameter {}: {} vs {}", i + 1, declared[i].spelled_type,
                                 defined[i].spelled_type);
      }
    }
  }
  if (difference.empty()) return;
  throw error(fmt::format("{}:{}: this declaration of solve() disagrees with its definition at "
                          "line {} ({}): make them the same",
                          file_label, declaration.line, definition.line, difference));
}

}  // namespace

std::vector<const parameter*> signature::pointers() const {
  std::vector<const parameter*> found;
  for (const auto& p : parameters) {
    if (p.is_pointer) found.push_back(&p);
  }
  return found;
}

std::vector<const parameter*> signature::scalars() const {
  std::vector<const parameter*> found;
  for (const auto& p : parameters) {
    if (!p.is_pointer) found.push_back(&p);
  }
  return found;
}

const parameter* signature::find(std::string_view name) const {
  for (const auto& p : parameters) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

signature parse_signature(const token_stream& source, std::string_view file_label) {
  solve_finder finder(source.tokens, file_label);
  const auto all = finder.run();
  std::vector<const occurrence*> c_linkage;
  for (const auto& found : all) {
    if (found.c_linkage) c_linkage.push_back(&found);
  }
  if (c_linkage.empty()) {
    if (finder.m_unterminated_line) {
      throw error(fmt::format("{}:{}: the parameter list of solve( never closes: add the ')' (and the body) it "
                              "is missing",
                              file_label, *finder.m_unterminated_line));
    }
    if (!all.empty()) {
      throw error(fmt::format("{}:{}: solve() has C++ linkage, so its symbol name is mangled: "
                              "declare it extern \"C\" void solve(...)",
                              file_label, all.front().line));
    }
    throw error(fmt::format("no extern \"C\" void solve(...) found in {}: kopt calls that "
                            "function; declare it with C linkage",
                            file_label));
  }
  const occurrence* definition = nullptr;
  for (const occurrence* found : c_linkage) {
    if (!found->is_definition) continue;
    if (definition != nullptr) {
      throw error(fmt::format("{}:{}: solve() is defined twice (also at line {}): keep one "
                              "definition per file, or put the variants under #if / #ifdef and pick one "
                              "with -D NAME[=VALUE]",
                              file_label, found->line, definition->line));
    }
    definition = found;
  }
  if (definition == nullptr) {
    throw error(fmt::format("{}:{}: solve() is declared but never defined in {}: kopt builds "
                            "this one file, so define solve() in it",
                            file_label, c_linkage.front()->line, file_label));
  }

  signature result;
  result.line = definition->line;
  result.parameters = parse_parameters(*definition, file_label);
  for (std::size_t i = 0; i < result.parameters.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (result.parameters[i].name == result.parameters[j].name) {
        throw error(fmt::format("{}:{}: solve() has two parameters named {} (parameters {} and {}): rename one",
                                file_label, result.parameters[i].line, result.parameters[i].name, j + 1, i + 1));
      }
    }
  }
  for (const occurrence* found : c_linkage) {
    if (found == definition) continue;
    check_agreement(*found, parse_parameters(*found, file_label), *definition,
                    result.parameters, file_label);
  }
  return result;
}

signature parse_signature(std::string_view source, std::string_view file_label) {
  return parse_signature(tokenize(source), file_label);
}

}  // namespace kopt::kernel
