#include "tune/ordered_proposer.h"

#include <algorithm>

namespace kopt::tune {

ordered_proposer::ordered_proposer(std::size_t count, const std::string& strategy, std::uint64_t seed)
    : m_order(tune_order(count, strategy, seed)), m_seen(count, false) {}

std::optional<std::size_t> ordered_proposer::next(const std::vector<measured_point>& so_far,
                                                  const std::vector<std::size_t>& pending) {
  // so_far only grows: mark what is new since the last call, then move past what is marked.
  for (; m_told < so_far.size(); ++m_told) m_seen.at(so_far[m_told].index) = true;
  while (m_cursor < m_order.size() && m_seen[m_order[m_cursor]]) ++m_cursor;
  for (std::size_t i = m_cursor; i < m_order.size(); ++i) {
    const bool is_pending = std::find(pending.begin(), pending.end(), m_order[i]) != pending.end();
    if (!m_seen[m_order[i]] && !is_pending) return m_order[i];
  }
  return std::nullopt;
}

std::vector<std::size_t> ordered_proposer::upcoming(const std::vector<measured_point>& so_far,
                                                    std::size_t count) {
  std::vector<std::size_t> out;
  if (!next(so_far, {})) return out;  // brings m_seen and the cursor up to date
  for (std::size_t i = m_cursor; i < m_order.size() && out.size() < count; ++i) {
    if (!m_seen[m_order[i]]) out.push_back(m_order[i]);
  }
  return out;
}

}  // namespace kopt::tune
