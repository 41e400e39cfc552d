#include "harness/runner_phases.h"

#include <algorithm>

namespace kopt::harness {

phase_seconds with_runner_timing(phase_seconds phases, const std::optional<runner_overhead>& overhead) {
  if (!overhead || !overhead->timing_s) return phases;
  const auto runner = std::find_if(phases.begin(), phases.end(), [](const auto& p) { return p.first == "python_runner"; });
  if (runner == phases.end()) return phases;
  // The runner's clock and this process's differ by its start; never a negative remainder.
  const double sampling = std::min(*overhead->timing_s, runner->second);
  runner->second -= sampling;
  phases.insert(runner + 1, {"timing", sampling});
  return phases;
}

}  // namespace kopt::harness
