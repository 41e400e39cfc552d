#include "kernel/conditional_source.h"

#include <cctype>
#include <limits>
#include <map>
#include <optional>

#include "core/text.h"

namespace kopt::kernel {
namespace {

using macro_table = std::map<std::string, std::string, std::less<>>;

// A condition's value, or nothing when it holds what this evaluator does not read.
class condition {
 public:
  condition(std::string_view text, const macro_table& macros) : m_text(text), m_macros(macros) {}

  std::optional<long long> value() {
    const auto v = ternary();
    skip_space();
    if (!v || m_at != m_text.size()) return std::nullopt;
    return v;
  }

 private:
  void skip_space() {
    while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at]))) ++m_at;
  }
  bool take(std::string_view op) {
    skip_space();
    if (m_text.substr(m_at, op.size()) != op) return false;
    // "<" must not take the first half of "<<" or "<=", and so on.
    const char next = m_at + op.size() < m_text.size() ? m_text[m_at + op.size()] : '\0';
    if ((op == "<" || op == ">") && (next == op[0] || next == '=')) return false;
    if ((op == "&" || op == "|") && next == op[0]) return false;
    if ((op == "!" || op == "=") && next == '=') return false;
    m_at += op.size();
    return true;
  }

  std::optional<long long> ternary() {
    auto c = binary(0);
    if (!c || !take("?")) return c;
    const auto yes = ternary();
    if (!yes || !take(":")) return std::nullopt;
    const auto no = ternary();
    if (!no) return std::nullopt;
    return *c != 0 ? yes : no;
  }

  // Precedence climbing over C's binary operators, loosest first.
  std::optional<long long> binary(int level) {
    static const std::vector<std::vector<std::string_view>> levels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(levels.size())) return unary();
    auto left = binary(level + 1);
    while (left) {
      std::string_view found;
      for (const std::string_view op : levels[static_cast<std::size_t>(level)]) {
        if (take(op)) {
          found = op;
          break;
        }
      }
      if (found.empty()) break;
      const auto right = binary(level + 1);
      if (!right) return std::nullopt;
      left = apply(found, *left, *right);
    }
    return left;
  }

  static std::optional<long long> apply(std::string_view op, long long a, long long b) {
    if (op == "||") return (a != 0 || b != 0) ? 1 : 0;
    if (op == "&&") return (a != 0 && b != 0) ? 1 : 0;
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "&") return a & b;
    if (op == "==") return a == b ? 1 : 0;
    if (op == "!=") return a != b ? 1 : 0;
    if (op == "<=") return a <= b ? 1 : 0;
    if (op == ">=") return a >= b ? 1 : 0;
    if (op == "<") return a < b ? 1 : 0;
    if (op == ">") return a > b ? 1 : 0;
    if (op == "<<") return b < 0 || b > 62 ? std::nullopt : std::optional<long long>(a << b);
    if (op == ">>") return b < 0 || b > 62 ? std::nullopt : std::optional<long long>(a >> b);
    // What overflows has no value here (the compiler would warn of it; kopt cannot tell its branch).
    long long result = 0;
    if (op == "+") return __builtin_add_overflow(a, b, &result) ? std::nullopt : std::optional<long long>(result);
    if (op == "-") return __builtin_sub_overflow(a, b, &result) ? std::nullopt : std::optional<long long>(result);
    if (op == "*") return __builtin_mul_overflow(a, b, &result) ? std::nullopt : std::optional<long long>(result);
    if (b == 0 || (b == -1 && a == std::numeric_limits<long long>::min())) return std::nullopt;  // / and %
    return op == "/" ? a / b : a % b;
  }

  std::optional<long long> unary() {
    // Each operator and parenthesis recurses: a condition nested deeper than any real one (a
    // mutant with 30,000 '(' overflowed the stack) is one this evaluator does not read.
    constexpr int deepest = 256;
    if (m_nesting >= deepest) return std::nullopt;
    ++m_nesting;
    const auto v = unary_operand();
    --m_nesting;
    return v;
  }

  std::optional<long long> unary_operand() {
    if (take("!")) {
      const auto v = unary();
      return v ? std::optional<long long>(*v == 0 ? 1 : 0) : std::nullopt;
    }
    if (take("-")) {
      const auto v = unary();
      long long negated = 0;
      return v && !__builtin_sub_overflow(0LL, *v, &negated) ? std::optional<long long>(negated) : std::nullopt;
    }
    if (take("+")) return unary();
    if (take("~")) {
      const auto v = unary();
      return v ? std::optional<long long>(~*v) : std::nullopt;
    }
    if (take("(")) {
      const auto v = ternary();
      if (!v || !take(")")) return std::nullopt;
      return v;
    }
    return primary();
  }

  std::optional<long long> primary() {
    skip_space();
    if (m_at >= m_text.size()) return std::nullopt;
    const char c = m_text[m_at];
    if (std::isdigit(static_cast<unsigned char>(c))) return number();
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) return std::nullopt;
    const std::string name = identifier();
    if (name == "defined") {
      const bool parenthesised = take("(");
      skip_space();
      const std::string macro = identifier();
      if (macro.empty() || (parenthesised && !take(")"))) return std::nullopt;
      return m_macros.count(macro) > 0 ? 1 : 0;
    }
    skip_space();
    if (m_at < m_text.size() && m_text[m_at] == '(') return std::nullopt;  // a function-like macro
    const auto found = m_macros.find(name);
    if (found == m_macros.end()) return 0;  // an undefined name is 0
    if (trim(found->second).empty()) return std::nullopt;  // defined as nothing: not a number
    condition inner(found->second, m_macros);
    if (++m_depth > 16) return std::nullopt;
    return inner.value();
  }

  std::string identifier() {
    const std::size_t start = m_at;
    while (m_at < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[m_at])) || m_text[m_at] == '_')) ++m_at;
    return std::string(m_text.substr(start, m_at - start));
  }

  std::optional<long long> number() {
    const std::size_t start = m_at;
    while (m_at < m_text.size() && std::isalnum(static_cast<unsigned char>(m_text[m_at]))) ++m_at;
    std::string digits(m_text.substr(start, m_at - start));
    while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L')) {
      digits.pop_back();
    }
    try {
      std::size_t used = 0;
      const long long v = std::stoll(digits, &used, 0);
      if (used != digits.size()) return std::nullopt;
      return v;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  std::string_view m_text;
  const macro_table& m_macros;
  std::size_t m_at = 0;
  int m_depth = 0;
  int m_nesting = 0;  // unary operators and parentheses open at m_at
};

// One #if group being read: whether the current branch is kept, and whether one was already.
struct group {
  bool outer_active = true;  // the group sits in kept text
  bool taken = false;        // a branch of it was kept (an #else is then dropped)
  bool active = true;        // the current branch is kept
  bool unknown = false;      // a condition could not be evaluated: every branch kept
};

// The directive's name and the rest of its text ("if", "defined(X) && Y").
std::pair<std::string, std::string> split_directive(std::string_view line) {
  line = trim(line);
  line.remove_prefix(1);  // '#'
  line = trim(line);
  std::size_t end = 0;
  while (end < line.size() && std::isalpha(static_cast<unsigned char>(line[end]))) ++end;
  std::string rest(trim(line.substr(end)));
  // A // comment on the directive's line is not part of its condition.
  if (const std::size_t comment = rest.find("//"); comment != std::string::npos) rest = std::string(trim(rest.substr(0, comment)));
  return {std::string(line.substr(0, end)), rest};
}

}  // namespace

conditional_source active_source(std::string_view source, const std::vector<std::string>& defines) {
  macro_table macros;
  for (const std::string& d : defines) {
    const std::size_t eq = d.find('=');
    macros[d.substr(0, eq)] = eq == std::string::npos ? "1" : d.substr(eq + 1);  // -DNAME means 1
  }
  conditional_source out;
  std::vector<group> groups;
  const auto kept = [&] { return groups.empty() || groups.back().active; };
  const std::vector<std::string> lines = split_lines(source);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const int number = static_cast<int>(i) + 1;
    const std::string_view trimmed = trim(line);
    // A directive and its backslash continuations, read as one line.
    std::string directive;
    std::size_t last = i;
    if (!trimmed.empty() && trimmed.front() == '#') {
      directive = line;
      while (!directive.empty() && directive.back() == '\\' && last + 1 < lines.size()) {
        directive.pop_back();
        directive += lines[++last];
      }
    }
    const auto keep_lines = [&](bool keep) {
      for (std::size_t j = i; j <= last; ++j) out.text += (keep ? lines[j] : std::string()) + "\n";
      i = last;
    };
    if (directive.empty()) {
      keep_lines(kept());
      continue;
    }
    const auto [name, rest] = split_directive(directive);
    const auto evaluate = [&]() -> std::optional<bool> {
      std::optional<long long> v;
      if (name == "ifdef" || name == "ifndef") {
        if (rest.empty()) return std::nullopt;
        const bool defined = macros.count(std::string(trim(rest))) > 0;
        return name == "ifdef" ? defined : !defined;
      }
      condition c(rest, macros);
      v = c.value();
      if (!v) return std::nullopt;
      return *v != 0;
    };
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      group g;
      g.outer_active = kept();
      const auto v = g.outer_active ? evaluate() : std::optional<bool>(false);
      if (!v) {
        g.unknown = true;
        out.unresolved.push_back(number);
      }
      g.active = g.outer_active && (g.unknown || *v);
      g.taken = g.active;
      groups.push_back(g);
      keep_lines(g.outer_active);
    } else if ((name == "elif" || name == "else") && !groups.empty()) {
      group& g = groups.back();
      if (g.unknown) {
        g.active = g.outer_active;
      } else if (g.taken || !g.outer_active) {
        g.active = false;
      } else if (name == "else") {
        g.active = true;
      } else {
        const auto v = evaluate();
        if (!v) {
          g.unknown = true;
          out.unresolved.push_back(number);
        }
        g.active = g.unknown || *v;
      }
      g.taken = g.taken || g.active;
      keep_lines(g.outer_active);
    } else if (name == "endif" && !groups.empty()) {
      const bool outer = groups.back().outer_active;
      groups.pop_back();
      keep_lines(outer);
    } else {
      if (kept() && name == "define") {
        const std::size_t space = rest.find_first_of(" \t(");
        const std::string macro = rest.substr(0, space);
        // A function-like macro's name counts as defined; its value is not read.
        const bool function_like = space != std::string::npos && rest[space] == '(';
        if (!macro.empty()) macros[macro] = function_like || space == std::string::npos ? "" : rest.substr(space + 1);
      } else if (kept() && name == "undef") {
        macros.erase(std::string(trim(rest)));
      }
      keep_lines(kept());
    }
  }
  return out;
}

}  // namespace kopt::kernel
