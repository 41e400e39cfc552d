#pragma once
// Where a run's wall time went: each step, when it ends, is recorded under its name with the
// seconds since the previous step ended (or since the clock started), in the order they ran.

#include <algorithm>
#include <chrono>
#include <string>

#include "core/document.h"

namespace kopt {

using phase_seconds = named_values<double>;  // [s] by step, in order

class phase_clock {
 public:
  // Ends the current step as `name` [s] and starts the next (a step done again is replaced).
  void done(const std::string& name) {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - m_mark).count();
    const auto same = std::find_if(m_phases.begin(), m_phases.end(), [&](const auto& p) { return p.first == name; });
    if (same != m_phases.end()) {
      same->second = seconds;
    } else {
      m_phases.emplace_back(name, seconds);
    }
    m_mark = now;
  }
  const phase_seconds& phases() const { return m_phases; }

 private:
  std::chrono::steady_clock::time_point m_mark = std::chrono::steady_clock::now();
  phase_seconds m_phases;
};

}  // namespace kopt
