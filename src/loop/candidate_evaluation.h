#pragma once
// One candidate of a round, from its snapshot to its commit: measured from a copy of the
// snapshot beside the kernel file (so that local headers resolve as they do for the kernel, and
// candidates measured at once on several GPUs never share a file), then committed into the
// manifest and the memory. The round (candidate_round.h) decides where and when each runs.

#include <cstdint>
#include <string>

#include "loop/run_manifest.h"
#include "loop/step_context.h"

namespace kopt::loop {

inline constexpr const char* candidate_summary_name = "candidate_summary.md";

// Where candidate `c` is measured from: `.<stem>.kopt-cand<J><ext>` beside the kernel file.
std::filesystem::path candidate_work_file(const std::filesystem::path& kernel, int candidate);

// Measures candidate `c` of round `k` into its folder, `blocked` being what blocked_strategy
// said of it. Uses ctx.settings.target.kernel as the file it measures from (made from the
// snapshot here, removed when done), ctx.run.manifest as the run it reads and ctx.services as
// its GPU's steps; not the memory. Throws kopt::error when the snapshot changed after kopt took
// it, or as judge_version does.
void evaluate_candidate(const step_context& ctx, std::int64_t k, candidate_record& c,
                        const std::string& blocked);

// Candidate `c`, evaluated, into the run: its strategy blocked if it failed, its summary, the
// manifest (its commit point), then its outcome in the memory.
void commit_candidate(const step_context& ctx, std::int64_t k, candidate_record& c);

}  // namespace kopt::loop
