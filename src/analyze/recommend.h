#pragma once
// Ranked recommendations for a diagnosed kernel: the knowledge-base entries of its backend
// and class whose conditions hold, the most specific (most conditions met) first.

#include <string_view>
#include <vector>

#include "analyze/diagnosis.h"

namespace kopt::analyze {

std::vector<recommendation> recommend(const kernel_diagnosis& d, std::string_view backend,
                                      size_t max_count = 5);

}  // namespace kopt::analyze
