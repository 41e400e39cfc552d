#include "tune/tune_strategy.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "tune/model_proposer.h"
#include "tune/ordered_proposer.h"
#include "tune/tune_order.h"

namespace kopt::tune {

namespace {

bool among(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

[[noreturn]] void refuse_unknown(const std::string& strategy, const std::string& option) {
  throw error(fmt::format("{} {}: kopt tune knows {}", option, strategy, join(tune_strategies(), ", ")));
}

}  // namespace

std::vector<std::string> tune_strategies() {
  std::vector<std::string> names = fixed_order_strategies();
  names.insert(names.end(), model_proposer::strategies().begin(), model_proposer::strategies().end());
  return names;
}

std::unique_ptr<tune_proposer> make_tune_proposer(const std::string& strategy,
                                                  const kernel::planned_tune_space& tune, std::uint64_t seed,
                                                  std::optional<int> budget) {
  if (among(fixed_order_strategies(), strategy)) {
    return std::make_unique<ordered_proposer>(tune.allowed.size(), strategy, seed);
  }
  if (among(model_proposer::strategies(), strategy))
    return std::make_unique<model_proposer>(strategy, tune, seed, budget);
  refuse_unknown(strategy, "--strategy");
}

void check_tune_strategy(const std::string& strategy, const std::string& option) {
  if (!among(tune_strategies(), strategy)) refuse_unknown(strategy, option);
  // A space of two configurations: enough for the strategy to start as it would for a kernel.
  kernel::planned_tune_space probe;
  probe.space = kernel::read_tune_space("// kopt: tune(X, 1, 2)\n", "the strategy check");
  probe.allowed = probe.space.allowed([](std::string_view) { return std::nullopt; }, "the strategy check");
  make_tune_proposer(strategy, probe, 0, 1);
}

}  // namespace kopt::tune
