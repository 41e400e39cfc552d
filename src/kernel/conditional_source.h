#pragma once
// What the compiler will see of a source: the lines of inactive #if / #ifdef / #ifndef /
// #elif / #else branches blanked (so line numbers stay), given the -D definitions the build is
// made with and the file's own #define / #undef lines. A kernel file may hold variants of
// solve() under conditions (`#ifdef USE_TMA ... #else ... #endif`) and -D picks one; the front
// end reads the one the compiler will build.
//
// Conditions are evaluated as the preprocessor does for what kernels write: integer literals,
// macros defined as integers (others count as 0), defined(NAME) / defined NAME, and C's
// arithmetic, comparison and logical operators with parentheses. A condition it cannot
// evaluate (a function-like macro, say) leaves every branch of its group as it is, as before.

#include <string>
#include <string_view>
#include <vector>

namespace kopt::kernel {

struct conditional_source {
  std::string text;             // the source, inactive lines blanked
  std::vector<int> unresolved;  // lines of conditions that could not be evaluated
};

// `defines`: "NAME" or "NAME=VALUE", as given to -D.
conditional_source active_source(std::string_view source, const std::vector<std::string>& defines);

}  // namespace kopt::kernel
