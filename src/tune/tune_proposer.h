#pragma once
// What a kopt tune strategy decides: the next configuration to measure, given every one
// measured so far. A fixed order (exhaustive, random) ignores the results; a model-based
// strategy (tpe) learns from them.

#include <cstddef>
#include <optional>
#include <vector>

namespace kopt::tune {

// A configuration measured (or read from the cache), by its index among the allowed ones.
struct measured_point {
  std::size_t index = 0;
  std::optional<double> median_ms;  // none: it did not pass the judge
};

class tune_proposer {
 public:
  virtual ~tune_proposer() = default;
  // The index of an allowed configuration neither in `so_far` nor `pending` (proposed and being
  // measured on another GPU, its result not known yet); none when the strategy has no more.
  virtual std::optional<std::size_t> next(const std::vector<measured_point>& so_far,
                                          const std::vector<std::size_t>& pending) = 0;
  // Up to `count` configurations it will propose next if nothing changes its mind, next()'s
  // first: what can be built ahead. A model-based strategy knows only after each result.
  virtual std::vector<std::size_t> upcoming(const std::vector<measured_point>& so_far, std::size_t count) {
    (void)so_far;
    (void)count;
    return {};
  }
};

}  // namespace kopt::tune
