#pragma once
// Integer expressions of solve()'s dimensions, as annotations write buffer sizes and value
// ranges: `M*K`, `(rows + 1) * cols`, `cdiv(N, 4) * 4`, `min(a, b)`, `max(a, b)`.
//
// Grammar (usual C precedence, left to right):
//   expr    := and ('||' and)*
//   and     := eq ('&&' eq)*
//   eq      := rel (('==' | '!=') rel)*
//   rel     := sum (('<' | '<=' | '>' | '>=') sum)*
//   sum     := term (('+' | '-') term)*
//   term    := unary (('*' | '/' | '%') unary)*
//   unary   := ('-' | '+' | '!') unary | primary
//   primary := INTEGER | NAME | FUNC '(' expr ',' expr ')' | '(' expr ')'
//   FUNC    := cdiv | min | max
// Comparisons, ! and the logical operators yield 1 or 0 as in C (tune restrictions are written
// with them: `BLOCK_M * VEC <= 1024 && BLOCK_M >= 64`); both sides of && and || are evaluated.
// INTEGER is decimal or 0x-hex, with optional C++14 digit separators (1'048'576).
// Evaluation is in int64: `/` and `%` truncate toward zero as in C, cdiv(a, b) is the
// quotient rounded up; overflow and division by zero are errors, never wrapped values.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/tokenizer.h"

namespace kopt::kernel {

// What went wrong, in words meant to follow "in <expression>: ". Callers add the context
// (annotation line, buffer) and turn it into a kopt::error.
class expression_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class int_expression {
 public:
  using name_lookup = std::function<std::optional<int64_t>(std::string_view name)>;

  // Limits that keep hostile text from exhausting the stack or memory: parentheses, unary
  // signs and calls nested deeper than max_depth, or more than max_terms numbers and names.
  static constexpr int max_depth = 200;
  static constexpr std::size_t max_terms = 10'000;

  // Throws expression_error for malformed text, or text past the limits above.
  static int_expression parse(std::string_view text);
  // `tokens` come from a larger text (an annotation); `text` is their source slice.
  static int_expression parse(std::span<const token> tokens, std::string text);

  // Throws expression_error on overflow, division by zero, or a name `lookup` does not know.
  int64_t evaluate(const name_lookup& lookup) const;

  // Distinct names in order of first appearance (function names excluded).
  std::vector<std::string> names() const;
  const std::string& text() const { return m_text; }

 private:
  enum class node_kind { literal, name, negate, logical_not, binary, call };
  struct node {
    node_kind kind = node_kind::literal;
    int64_t value = 0;           // literal
    std::string name;            // name, or the function of a call
    char op = 0;                 // binary: + - * / %, < l(<=) > g(>=) =(==) !(!=) &(&&) |(||)
    std::vector<size_t> args;    // indices into m_nodes
  };
  friend class expression_parser;

  // The value of node `n` from its children's values (computed before it: children precede parents).
  int64_t evaluate_node(const node& n, const std::vector<int64_t>& values, const name_lookup& lookup) const;

  std::vector<node> m_nodes;  // children before parents; the root is last
  std::string m_text;
};

}  // namespace kopt::kernel
