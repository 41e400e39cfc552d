#pragma once
// Where a run's wall time went: each step, when it ends, is recorded under its name with the
// seconds since the previous step ended (or since the clock started).

#include <chrono>
#include <string>

#include "core/json_io.h"

namespace kopt {

class phase_clock {
 public:
  // Ends the current step as `name` [s] and starts the next.
  void done(const std::string& name) {
    const auto now = std::chrono::steady_clock::now();
    m_phases[name] = std::chrono::duration<double>(now - m_mark).count();
    m_mark = now;
  }
  // {"name": seconds, ...}
  const json& phases() const { return m_phases; }

 private:
  std::chrono::steady_clock::time_point m_mark = std::chrono::steady_clock::now();
  json m_phases = json::object();
};

}  // namespace kopt
