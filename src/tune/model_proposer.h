#pragma once
// The model-based strategies, gp (a Gaussian process) and tpe (a tree-structured Parzen
// estimator): Optuna's samplers in kopt's Python (share/kopt/kopt_tune_strategy.py, which says
// how the two talk), one process for the whole tune. They propose from what was measured; the
// same seed and results give the same proposals.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/conversing_process.h"
#include "kernel/tune_space.h"
#include "tune/tune_proposer.h"

namespace kopt::tune {

class model_proposer final : public tune_proposer {
 public:
  // The strategies it knows (python/kopt_tune_strategy.py's), for tune/tune_strategy.h.
  static const std::vector<std::string>& strategies() {
    static const std::vector<std::string> names = {"gp", "tpe"};
    return names;
  }

  // Starts the strategy's process; throws kopt::error with its reason when it cannot propose
  // (Python or a package missing).
  model_proposer(const std::string& strategy, const kernel::planned_tune_space& tune, std::uint64_t seed,
                 std::optional<int> budget);
  ~model_proposer() override;
  std::optional<std::size_t> next(const std::vector<measured_point>& so_far,
                                  const std::vector<std::size_t>& pending) override;

 private:
  std::unique_ptr<conversing_process> m_process;
  std::string m_strategy;
  std::size_t m_allowed = 0;
};

}  // namespace kopt::tune
