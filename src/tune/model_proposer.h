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
#include "core/json_io.h"
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
  // The rest of the random start: its proposals follow from the seed and how many were
  // measured, not from the times, so they can be built ahead; none once the model decides.
  std::vector<std::size_t> upcoming(const std::vector<measured_point>& so_far, std::size_t count) override;

 private:
  // Sends one request and returns its reply's `key` (a kopt::error naming what went wrong).
  json asked(const json& request, const std::string& key);
  // `proposal` as an index of an allowed configuration (a kopt::error when it is none).
  std::size_t allowed_index(const json& proposal) const;

  std::unique_ptr<conversing_process> m_process;
  std::string m_strategy;
  std::size_t m_allowed = 0;
};

}  // namespace kopt::tune
