#pragma once
// Token-level helpers shared by the signature and parameter parsers: bracket matching and
// removal of attribute syntax, which may appear anywhere in a declaration.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "kernel/tokenizer.h"

namespace kopt::kernel::detail {

// Index of the bracket closing the one at `open` ('(', '[', '{' or '<'), counting only
// that bracket kind; tokens.size() when it is never closed.
size_t matching_close(std::span<const token> tokens, size_t open);

// The tokens without `__attribute__((...))`, `__declspec(...)`, `alignas(...)` and
// `[[...]]`: they never change which buffers or scalars a parameter is.
std::vector<token> strip_attributes(std::span<const token> tokens);

// Splits at commas outside any (), [], {} or <> nesting.
std::vector<std::vector<token>> split_top_level_commas(std::span<const token> tokens);

// Joins tokens the way a person writes a type: "const float* __restrict__", "std::int32_t".
std::string spell(std::span<const token> tokens);

}  // namespace kopt::kernel::detail
