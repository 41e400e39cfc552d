#include "kernel/expression.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include <fmt/format.h>

namespace kopt::kernel {
namespace {

std::string describe(const token* t) {
  return t == nullptr ? "the end" : fmt::format("'{}'", t->text);
}

// Decimal or 0x-hex digits with optional ' separators; nullopt when not an integer.
std::optional<int64_t> parse_integer_literal(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty() || text.front() == '\'' || text.back() == '\'') return std::nullopt;
  int64_t value = 0;
  for (const char c : text) {
    if (c == '\'') continue;
    int digit = 0;
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      digit = c - '0';
    } else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c)) != 0) {
      digit = std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    } else {
      return std::nullopt;
    }
    if (__builtin_mul_overflow(value, base, &value) || __builtin_add_overflow(value, digit, &value)) {
      throw expression_error(fmt::format("the number {} does not fit in 64 bits", text));
    }
  }
  return value;
}

}  // namespace

// Recursive descent over the tokens; appends nodes so that children precede parents.
class expression_parser {
 public:
  expression_parser(std::span<const token> tokens, int_expression& out)
      : m_tokens(tokens), m_out(out) {}

  void run() {
    if (m_tokens.empty()) throw expression_error("expected an integer expression, found nothing");
    parse_or();
    if (m_pos < m_tokens.size()) {
      throw expression_error(fmt::format("unexpected {} after a complete expression",
                                         describe(current())));
    }
  }

 private:
  const token* current() const { return m_pos < m_tokens.size() ? &m_tokens[m_pos] : nullptr; }
  bool at(std::string_view spelling) const {
    return m_pos < m_tokens.size() && m_tokens[m_pos].is(spelling);
  }

  size_t add(int_expression::node n) {
    if ((n.kind == int_expression::node_kind::literal || n.kind == int_expression::node_kind::name) &&
        ++m_terms > int_expression::max_terms) {
      throw expression_error(fmt::format("the expression has more than {} terms: too long to be a buffer size",
                                         int_expression::max_terms));
    }
    m_out.m_nodes.push_back(std::move(n));
    return m_out.m_nodes.size() - 1;
  }

  // Entered by every construct that nests (a sign, a parenthesis, a call): a depth past the
  // limit is an error, never a stack overflow.
  struct nesting {
    explicit nesting(int& depth) : m_depth(depth) {
      if (++m_depth > int_expression::max_depth) {
        throw expression_error(fmt::format("the expression nests more than {} levels deep", int_expression::max_depth));
      }
    }
    ~nesting() { --m_depth; }
    nesting(const nesting&) = delete;
    nesting& operator=(const nesting&) = delete;
    int& m_depth;
  };

  size_t binary(char op, size_t lhs, size_t rhs) {
    int_expression::node n;
    n.kind = int_expression::node_kind::binary;
    n.op = op;
    n.args = {lhs, rhs};
    return add(std::move(n));
  }

  // The binary operators by precedence, lowest first, each level left-associative:
  // || over && over == != over < <= > >= over + - over * / %. The comparisons and the logical
  // operators yield 1 or 0. A node's op is one character: 'l' for <=, 'g' for >=, '=' for ==,
  // '!' for !=, '&' for &&, '|' for ||, else the operator itself.
  struct binary_operator {
    std::string_view spelling;
    char op;
  };
  static constexpr std::array<std::array<binary_operator, 4>, 6> levels = {{
      {{{"||", '|'}}},
      {{{"&&", '&'}}},
      {{{"==", '='}, {"!=", '!'}}},
      {{{"<", '<'}, {"<=", 'l'}, {">", '>'}, {">=", 'g'}}},
      {{{"+", '+'}, {"-", '-'}}},
      {{{"*", '*'}, {"/", '/'}, {"%", '%'}}},
  }};

  // The operator of `level` at the current token, or 0.
  char operator_at(std::size_t level) const {
    for (const binary_operator& o : levels[level]) {
      if (!o.spelling.empty() && at(o.spelling)) return o.op;
    }
    return 0;
  }

  size_t parse_level(std::size_t level) {
    if (level == levels.size()) return parse_unary();
    size_t lhs = parse_level(level + 1);
    while (const char op = operator_at(level)) {
      ++m_pos;
      lhs = binary(op, lhs, parse_level(level + 1));
    }
    return lhs;
  }

  size_t parse_or() { return parse_level(0); }

  size_t parse_unary() {
    const nesting guard(m_depth);
    if (at("+")) {
      ++m_pos;
      return parse_unary();
    }
    if (at("-") || at("!")) {
      int_expression::node n;
      n.kind = at("-") ? int_expression::node_kind::negate : int_expression::node_kind::logical_not;
      ++m_pos;
      n.args = {parse_unary()};
      return add(std::move(n));
    }
    return parse_primary();
  }

  size_t parse_primary() {
    const token* t = current();
    const std::string after = m_pos == 0 ? "" : fmt::format(" after '{}'", m_tokens[m_pos - 1].text);
    if (t == nullptr) {
      throw expression_error(fmt::format("expected a number, a name or '('{}", after));
    }
    if (t->kind == token_kind::number) {
      ++m_pos;
      const auto value = parse_integer_literal(t->text);
      if (!value) throw expression_error(fmt::format("'{}' is not an integer", t->text));
      int_expression::node n;
      n.value = *value;
      return add(std::move(n));
    }
    if (t->is("(")) {
      ++m_pos;
      const size_t inner = parse_or();
      expect(")", "to close '('");
      return inner;
    }
    if (t->is_identifier()) {
      ++m_pos;
      if (at("(")) return parse_call(t->text);
      int_expression::node n;
      n.kind = int_expression::node_kind::name;
      n.name = t->text;
      return add(std::move(n));
    }
    throw expression_error(fmt::format("expected a number, a name or '('{}, found {}", after,
                                       describe(t)));
  }

  size_t parse_call(const std::string& function) {
    if (function != "cdiv" && function != "min" && function != "max") {
      throw expression_error(fmt::format("unknown function '{}': the functions are cdiv, min "
                                         "and max", function));
    }
    ++m_pos;  // '('
    int_expression::node n;
    n.kind = int_expression::node_kind::call;
    n.name = function;
    n.args.push_back(parse_or());
    expect(",", fmt::format("between the two arguments of {}()", function));
    n.args.push_back(parse_or());
    expect(")", fmt::format("after the second argument of {}() (it takes two)", function));
    return add(std::move(n));
  }

  void expect(std::string_view spelling, const std::string& why) {
    if (!at(spelling)) {
      throw expression_error(fmt::format("expected '{}' {}, found {}", spelling, why,
                                         describe(current())));
    }
    ++m_pos;
  }

  std::span<const token> m_tokens;
  int_expression& m_out;
  size_t m_pos = 0;
  int m_depth = 0;            // constructs open now
  std::size_t m_terms = 0;    // numbers and names so far
};

int_expression int_expression::parse(std::span<const token> tokens, std::string text) {
  int_expression expression;
  expression.m_text = std::move(text);
  expression_parser(tokens, expression).run();
  return expression;
}

int_expression int_expression::parse(std::string_view text) {
  const token_stream stream = tokenize(text);
  return parse(stream.tokens, std::string(text));
}

std::vector<std::string> int_expression::names() const {
  std::vector<std::string> found;
  for (const auto& n : m_nodes) {
    if (n.kind == node_kind::name && std::find(found.begin(), found.end(), n.name) == found.end()) {
      found.push_back(n.name);
    }
  }
  return found;
}

int64_t int_expression::evaluate(const name_lookup& lookup) const {
  if (m_nodes.empty()) throw expression_error("empty expression");
  // One pass in node order: every child's value is known before its parent's, and no
  // recursion grows with the expression's depth.
  std::vector<int64_t> values;
  values.reserve(m_nodes.size());
  for (const node& n : m_nodes) values.push_back(evaluate_node(n, values, lookup));
  return values.back();
}

int64_t int_expression::evaluate_node(const node& n, const std::vector<int64_t>& values,
                                      const name_lookup& lookup) const {
  switch (n.kind) {
    case node_kind::literal: return n.value;
    case node_kind::name: {
      const auto value = lookup(n.name);
      if (!value) throw expression_error(fmt::format("unknown name '{}'", n.name));
      return *value;
    }
    case node_kind::logical_not:
      return values[n.args[0]] == 0 ? 1 : 0;
    case node_kind::negate: {
      const int64_t value = values[n.args[0]];
      if (value == std::numeric_limits<int64_t>::min()) {
        throw expression_error(fmt::format("integer overflow: -({}) does not fit in int64", value));
      }
      return -value;
    }
    default: break;
  }
  const int64_t a = values[n.args[0]];
  const int64_t b = values[n.args[1]];
  if (n.kind == node_kind::call) {
    if (n.name == "min") return std::min(a, b);
    if (n.name == "max") return std::max(a, b);
  }
  switch (n.kind == node_kind::binary ? n.op : 0) {
    case '<':
      return a < b ? 1 : 0;
    case 'l':
      return a <= b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case 'g':
      return a >= b ? 1 : 0;
    case '=':
      return a == b ? 1 : 0;
    case '!':
      return a != b ? 1 : 0;
    case '&':
      return (a != 0 && b != 0) ? 1 : 0;
    case '|':
      return (a != 0 || b != 0) ? 1 : 0;
    default:
      break;
  }
  const char op = n.kind == node_kind::call ? 'c' : n.op;
  if ((op == '/' || op == '%' || op == 'c') && b == 0) {
    throw expression_error(fmt::format("division by zero ({} {} 0)", a,
                                       op == 'c' ? "cdiv" : std::string(1, op)));
  }
  int64_t result = 0;
  bool overflow = false;
  switch (op) {
    case '+': overflow = __builtin_add_overflow(a, b, &result); break;
    case '-': overflow = __builtin_sub_overflow(a, b, &result); break;
    case '*': overflow = __builtin_mul_overflow(a, b, &result); break;
    default:
      // INT64_MIN / -1 is the one quotient that does not fit.
      overflow = a == std::numeric_limits<int64_t>::min() && b == -1;
      if (overflow) break;
      result = op == '%' ? a % b : a / b;
      // cdiv rounds the quotient up: add one when it was truncated toward a smaller value.
      if (op == 'c' && a % b != 0 && ((a < 0) == (b < 0))) ++result;
      break;
  }
  if (overflow) {
    throw expression_error(fmt::format("integer overflow: {} {} {} does not fit in int64", a,
                                       op == 'c' ? "cdiv" : std::string(1, op), b));
  }
  return result;
}

}  // namespace kopt::kernel
