#include "harness/runner_phases.h"

#include <algorithm>

namespace kopt::harness {

json with_runner_timing(json phases, const json& overhead) {
  if (!overhead.is_object() || !phases.is_object()) return phases;
  const auto timing = overhead.find("timing_s");
  const auto runner = phases.find("python_runner");
  if (timing == overhead.end() || !timing->is_number() || runner == phases.end() || !runner->is_number()) {
    return phases;
  }
  // The runner's clock and this process's differ by its start; never a negative remainder.
  const double sampling = std::min(timing->get<double>(), runner->get<double>());
  phases["python_runner"] = runner->get<double>() - sampling;
  phases["timing"] = sampling;
  return phases;
}

}  // namespace kopt::harness
