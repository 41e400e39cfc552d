#pragma once
// The chart of the kernel's GPU median per iteration: one point per timed iteration with its
// 95 % interval as an error bar, coloured by the iteration's outcome (with a legend), the best
// version ringed, and an iteration without a median (rejected before timing) drawn as a marked
// gap on its own, never as a zero. Everything comes from the manifest.
//
// Stable hooks for tests and scripts:
//   <g class="iteration-point" data-iteration data-median-ms data-ci-low data-ci-high data-outcome [data-best]>
//   <g class="iteration-missing" data-iteration data-outcome>
//   <g class="legend-entry" data-outcome>

#include <string>
#include <vector>

#include "loop/run_manifest.h"

namespace kopt::report {

// The outcomes in the order legends list them; others seen in a run follow.
const std::vector<std::string>& outcome_order();

// The SVG element (no surrounding HTML).
std::string median_chart_svg(const loop::run_manifest& manifest);

}  // namespace kopt::report
