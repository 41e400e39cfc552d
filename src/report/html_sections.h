#pragma once
// The page's sections other than the charts, each an HTML fragment built from the typed
// report: the iteration table, the best version's diagnosis (evidence, recommendations,
// hottest source lines) and the memory's conclusions about the run's strategies. Every string
// from the run's files is escaped.

#include <string>

#include "report/run_report.h"

namespace kopt::report {

// `link_base`: the run folder as seen from the page's folder ("." when the page is inside it),
// for the links to each iteration's files.
std::string iteration_table_html(const run_report& report, const std::string& link_base);

std::string diagnosis_html(const run_report& report);

std::string memory_html(const run_report& report);

// A run adopted from the Python toolkit: the toolkit's figures (unverified) beside kopt's where it
// judged a version again; "" for a run that was not adopted.
std::string adoption_html(const run_report& report);

// Each version: its registers, shared memory, occupancy and diagnosis (when profiled), and what
// it changed from its parent (a unified diff, folded).
std::string versions_html(const run_report& report);

}  // namespace kopt::report
