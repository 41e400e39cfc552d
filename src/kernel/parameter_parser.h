#pragma once
// One parameter of solve() from its tokens: element type, pointer or scalar, constness and
// name. kopt can pass typed device pointers and scalars by value; anything else is refused
// here with the parameter named.

#include <span>
#include <string_view>

#include "kernel/parameter.h"
#include "kernel/tokenizer.h"

namespace kopt::kernel::detail {

struct parameter_context {
  std::string_view file_label;
  int index = 0;              // 0-based
  int line = 0;               // line of solve(), for a parameter without tokens
  bool allow_unnamed = false; // forward declarations may omit names; the definition may not
};

// `tokens` are the parameter's own tokens (between commas), attributes included.
// Throws kopt::error naming the file, line and parameter.
parameter parse_parameter(std::span<const token> tokens, const parameter_context& context);

}  // namespace kopt::kernel::detail
