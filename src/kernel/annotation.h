#pragma once
// The `kopt:` annotation in a kernel's comments (user documentation: docs/annotations.md):
//
//   // kopt: A[M*K] B[K*N] C[M*N] inout(C)
//   // kopt: idx[E] range(idx, 0, N)  mask[N] values(mask, 0, 1)  normal(noise, 0, 0.5)
//
// Items: NAME[COUNT] (element count, an integer expression of the dimensions),
// in(...) / out(...) / inout(...) (roles), range(NAME, LO, HI) (uniform in [LO, HI)),
// values(NAME, V1, V2, ...) (drawn from the list), normal(NAME, MEAN, STD); for kopt tune,
// tune(MACRO, V1, V2, ...) and restrict(CONDITION).
// parse_annotations checks the syntax only; check_annotations checks the items against
// solve()'s signature. Both throw kopt::error naming the file and line.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

#include "kernel/expression.h"
#include "kernel/signature.h"
#include "kernel/tokenizer.h"

namespace kopt::kernel {

enum class buffer_role { in, out, inout };
BOOST_DESCRIBE_ENUM(buffer_role, in, out, inout)
std::string_view to_string(buffer_role role);

enum class distribution_kind { uniform, choice, normal };
BOOST_DESCRIBE_ENUM(distribution_kind, uniform, choice, normal)
std::string_view to_string(distribution_kind kind);

// A number in an annotation: an integer expression of the dimensions (0, N, N-1, -5) or a
// floating literal (0.5, -1e-3). Exactly one of the two is set.
struct annotation_number {
  std::optional<int_expression> integer;
  std::optional<double> floating;
  std::string text;
};

struct size_item {
  std::string buffer;
  int_expression count;
  int line = 0;
};

struct role_item {
  std::string buffer;
  buffer_role role = buffer_role::in;
  int line = 0;
};

struct values_item {
  std::string buffer;
  distribution_kind kind = distribution_kind::uniform;
  std::vector<annotation_number> args;  // uniform: LO, HI; choice: the values; normal: MEAN, STD
  std::string text;                     // the item as written, for messages
  int line = 0;
};

// tune(NAME, V1, V2, ...): a -D macro kopt tune may set to each of the values (docs/annotations.md).
struct tune_item {
  std::string name;
  std::vector<int64_t> values;  // distinct, in the order written
  std::string text;             // the item as written, for messages
  int line = 0;
};

// restrict(CONDITION): a tune configuration is tried only where CONDITION, an expression of the
// tune parameters and solve()'s integer scalars, is not 0.
struct restrict_item {
  int_expression condition;
  int line = 0;
};

struct annotation_set {
  std::vector<size_item> sizes;
  std::vector<role_item> roles;
  std::vector<values_item> values;
  std::vector<tune_item> tunes;
  std::vector<restrict_item> restrictions;

  bool empty() const { return sizes.empty() && roles.empty() && values.empty(); }
  const size_item* size_of(std::string_view buffer) const;
  const role_item* role_of(std::string_view buffer) const;
  const values_item* values_of(std::string_view buffer) const;
  const tune_item* tune_of(std::string_view name) const;
};

// Reads every comment line whose text starts with `kopt:`, to that line's end: a `//`
// comment, or a line of a `/* */` comment (a leading `*` of a doc comment is decoration).
// Throws for a malformed item and for a second size, role or value spec of one buffer.
annotation_set parse_annotations(const std::vector<comment>& comments, std::string_view file_label);

// Every item must name a pointer parameter of solve(); expressions may use only its integer
// scalars; a const buffer cannot be out or inout; normal() needs a floating buffer;
// an integer buffer's bounds and values must be integers.
void check_annotations(const annotation_set& annotations, const signature& solve,
                       std::string_view file_label);

}  // namespace kopt::kernel
