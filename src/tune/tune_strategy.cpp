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

void check_tune_strategy(const std::string& strategy) {
  // A space of two configurations: enough for the strategy to start as it would for a kernel.
  kernel::planned_tune_space probe;
  probe.space = kernel::read_tune_space("// kopt: tune(X, 1, 2)\n", "the strategy check");
  probe.allowed = probe.space.allowed([](std::string_view) { return std::nullopt; }, "the strategy check");
  make_tune_proposer(strategy, probe, 0, 1);
}

}  // namespace kopt::tune
