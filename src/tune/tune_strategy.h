#pragma once
// kopt tune's strategies by name: exhaustive and random fix their order (tune/ordered_proposer.h),
// gp and tpe learn from what was measured (tune/model_proposer.h).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernel/tune_space.h"
#include "tune/tune_proposer.h"

namespace kopt::tune {

// The names --strategy takes, for its help and its error.
std::vector<std::string> tune_strategies();

// Throws kopt::error for a name it does not know (naming those it does), and as the strategy's
// own start does (gp or tpe without Python or its packages).
std::unique_ptr<tune_proposer> make_tune_proposer(const std::string& strategy,
                                                  const kernel::planned_tune_space& tune, std::uint64_t seed,
                                                  std::optional<int> budget);

// Throws as make_tune_proposer does for `strategy` (an unknown name, said as the value of
// `option`; gp or tpe without Python or its packages): for a caller that tunes later (kopt loop
// --tune), so that what the machine lacks is said before anything is measured.
void check_tune_strategy(const std::string& strategy, const std::string& option);

}  // namespace kopt::tune
