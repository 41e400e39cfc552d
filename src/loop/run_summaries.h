#pragma once
// The human-readable records of a run, printed from the manifest (the one owner of what
// happened): iteration_summary.md for one iteration, candidate_summary.md for one candidate of
// a round, and final_summary.md for the run.

#include <cstdint>
#include <string>
#include <vector>

#include "loop/run_manifest.h"

namespace kopt::loop {

std::string iteration_summary_markdown(const run_manifest& manifest, const iteration_record& record);

// A fenced block of shell commands, one a line.
std::string commands_block(const std::vector<std::string>& commands);

// iteration_summary.md's "## Commands" section: `commands` re-run that version's measurements.
std::string commands_markdown(const std::vector<std::string>& commands);

std::string candidate_summary_markdown(const run_manifest& manifest, std::int64_t iteration,
                                       const candidate_record& candidate);

// `reproduce`: the commands that re-run the best version's measurements.
std::string final_summary_markdown(const run_manifest& manifest, const std::vector<std::string>& reproduce);

// KernelBench's fast_p: the share of iterations whose version (a round's chosen candidate) is
// correct and faster than the reference by more than p. A round counts once, as an agent's
// attempt does: K candidates searched at once are one step of the loop, not K. nullopt
// without a reference.
std::optional<double> fast_p(const run_manifest& manifest, double p);

}  // namespace kopt::loop
