#pragma once
// A round of candidates (--candidates K): several versions of one iteration, each judged, timed,
// profiled and compared with the same incumbent (the best when the round began) exactly as a
// single version is, each with its own outcome in the memory (keyed by run, iteration and
// candidate). The manifest commits the round's list first, then each candidate's outcome, then
// the closed round; a killed call leaves the candidates it committed as they were, and the
// next call measures only the rest.
//
//   iter_vK/cand_J/   <stem>_vK_cJ.<ext> candidate_proposal.md benchmark_result.json ...
//                     full.ncu-rep ncu_*.csv analysis.{md,json} check_shapes/ candidate_summary.md
//   iter_vK/          the chosen candidate's files, copied under a single version's names
//                     (<stem>_vK.<ext>, benchmark_result.json, ...), iteration_summary.md,
//                     optimization_proposal.md
//
// The chosen candidate is the positive one with the largest improvement (the smallest ratio of
// medians; two from different GPUs whose intervals overlap are first compared with each other on
// one GPU: top_two_recomparison.h), which becomes the best; in a round with no positive candidate, the fastest that
// passed the judge (with no best yet, it becomes the baseline); when none passed, the first.

#include <cstdint>
#include <vector>

#include "loop/candidate_handover.h"
#include "loop/step_context.h"
#include "loop/step_outcome.h"

namespace kopt::loop {

// Snapshots the candidates into iter_vK/cand_J/ and commits the open round.
void start_round(const step_context& ctx, std::int64_t iteration,
                 const std::vector<handed_candidate>& candidates);

// Evaluates the open round's candidates that are not committed yet, one commit each, on one GPU
// or on several at once (round_on_gpus.h), then closes the round.
step_outcome finish_round(const step_context& ctx);

// Which candidate the iteration's record and top-level files are (see above); `candidates` is
// not empty and every one has its outcome.
int chosen_candidate(const std::vector<candidate_record>& candidates);

}  // namespace kopt::loop
