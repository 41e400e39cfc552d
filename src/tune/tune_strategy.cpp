#include "tune/tune_strategy.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "tune/model_proposer.h"
#include "tune/ordered_proposer.h"

namespace kopt::tune {

std::vector<std::string> tune_strategies() {
  return {"exhaustive", "random", "gp", "tpe"};
}

std::unique_ptr<tune_proposer> make_tune_proposer(const std::string& strategy,
                                                  const kernel::planned_tune_space& tune, std::uint64_t seed,
                                                  std::optional<int> budget) {
  if (strategy == "exhaustive" || strategy == "random") {
    return std::make_unique<ordered_proposer>(tune.allowed.size(), strategy, seed);
  }
  if (model_proposer::knows(strategy)) return std::make_unique<model_proposer>(strategy, tune, seed, budget);
  throw error(fmt::format("--strategy {}: kopt tune knows {}", strategy, join(tune_strategies(), ", ")));
}

}  // namespace kopt::tune
