#pragma once
// The strategies that fix their order before anything is measured (tune/tune_order.h).

#include <cstdint>
#include <string>

#include "tune/tune_order.h"
#include "tune/tune_proposer.h"

namespace kopt::tune {

class ordered_proposer final : public tune_proposer {
 public:
  ordered_proposer(std::size_t count, const std::string& strategy, std::uint64_t seed);
  std::optional<std::size_t> next(const std::vector<measured_point>& so_far,
                                  const std::vector<std::size_t>& pending) override;
  std::vector<std::size_t> upcoming(const std::vector<measured_point>& so_far, std::size_t count) override;

 private:
  std::vector<std::size_t> m_order;
  std::vector<bool> m_seen;  // by index: measured or read from the cache
  std::size_t m_told = 0;    // how much of so_far is marked in m_seen
  std::size_t m_cursor = 0;  // m_order before it is all seen
};

}  // namespace kopt::tune
