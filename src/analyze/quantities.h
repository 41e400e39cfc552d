#pragma once
// Named numbers of a diagnosis that knowledge-base conditions test ("waves_per_sm < 1").
// Flags are 1 or 0. A quantity the report did not provide is absent, and a condition on it
// does not hold.

#include <map>
#include <string>
#include <string_view>

#include "analyze/diagnosis.h"

namespace kopt::analyze {

std::map<std::string, double> diagnosis_quantities(const kernel_diagnosis& d);

// Whether a knowledge file may name this quantity (fixed names, stall_<reason>_pct and
// busiest_pipe_is_<pipe>).
bool is_known_quantity(std::string_view name);

}  // namespace kopt::analyze
