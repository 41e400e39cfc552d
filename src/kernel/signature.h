#pragma once
// solve()'s signature as the source declares it: `extern "C" void solve(...)`, the LeetGPU
// convention. Pointer parameters are device buffers, the others scalars by value.

#include <string>
#include <string_view>
#include <vector>

#include "kernel/parameter.h"
#include "kernel/tokenizer.h"

namespace kopt::kernel {

struct signature {
  std::vector<parameter> parameters;
  int line = 0;  // of the definition's `solve`

  std::vector<const parameter*> pointers() const;
  std::vector<const parameter*> scalars() const;
  const parameter* find(std::string_view name) const;
};

// Finds the one definition of `extern "C" void solve(...)` in the file, also inside an
// `extern "C" { ... }` block; forward declarations must agree with it. Throws kopt::error
// (headline "FILE:LINE: problem: what to do") when there is none, more than one, a
// declaration that disagrees, or a parameter kopt cannot pass (unnamed, reference, array,
// pointer to pointer, struct, template, unknown element type).
// `file_label` names the file in messages.
signature parse_signature(const token_stream& source, std::string_view file_label);
signature parse_signature(std::string_view source, std::string_view file_label);

}  // namespace kopt::kernel
