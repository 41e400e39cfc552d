#pragma once
// The roofline of a run (log-log): arithmetic intensity [FLOP/byte] against achieved FLOP/s,
// one point per profiled iteration, under the memory roof and the compute roofs. The roofs are
// the peaks the analysis read from the report itself (analysis.json's roofline section: DRAM
// bytes/s, FP32 and tensor FLOP/s at the recorded clocks), taken from the best version's
// analysis (else the last profiled one that has them); nothing is hard-coded per GPU.
//
// Stable hooks for tests and scripts:
//   <g class="roofline-point" data-iteration data-arithmetic-intensity data-flop-per-s data-outcome data-kernel>
//   <g class="roofline-missing" data-iteration data-why>   (profiled, but no FLOPs or bytes counted)
//   <g class="roof" data-roof="memory" data-bytes-per-s>, <g class="roof" data-roof="fp32|tensor" data-flop-per-s>

#include <optional>
#include <string>

#include "report/run_report.h"

namespace kopt::report {

// Achieved FLOP/s of a launch: all its FLOPs (scalar and tensor) over its duration, the same
// FLOPs its arithmetic intensity counts. nullopt when none was counted.
std::optional<double> achieved_flop_per_s(const analyze::roofline& roof);

// The iteration whose analysis gives the roofs; nullopt when no profiled iteration recorded a
// DRAM peak and a compute peak.
std::optional<std::int64_t> roofs_iteration(const run_report& report);

// The SVG element (no surrounding HTML).
std::string roofline_chart_svg(const run_report& report);

}  // namespace kopt::report
