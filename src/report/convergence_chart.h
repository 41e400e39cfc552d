#pragma once
// A tune's convergence: the best median found so far against the number of configurations
// evaluated, as a step line, over every evaluation's own median (a configuration read from the
// cache drawn apart, one that failed the judge as a cross on the axis, never as a time).
//
// Stable hooks for tests and scripts:
//   <g class="evaluation" data-evaluation data-configuration data-status [data-median-ms] [data-cached]>
//   <polyline class="best-so-far" data-best-ms>

#include <string>
#include <vector>

#include "tune/tune_result.h"

namespace kopt::report {

// The SVG element (no surrounding HTML); `title` names the shape for screen readers.
std::string convergence_chart_svg(const std::vector<tune::measured_configuration>& measured,
                                  const std::string& title);

}  // namespace kopt::report
