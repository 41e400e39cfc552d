#pragma once
// analysis.md: a short reading of the diagnosis (about 2 KB per kernel) for the person or
// agent deciding the next version; analysis.json has every number.

#include <string>

#include "analyze/analyzer.h"

namespace kopt::analyze {

std::string to_markdown(const analysis& a);

}  // namespace kopt::analyze
