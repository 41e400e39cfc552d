#pragma once
// Suggesting what a mistyped name meant: a command, an option, a dimension that is an option.

#include <string>
#include <vector>

namespace kopt {

// The closest of `candidates` to `word` when it is a likely typo (at most a third of its
// letters changed, and not `word` itself); "" when none is.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace kopt
