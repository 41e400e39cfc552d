#pragma once
// Is the candidate faster than the incumbent? Both versions are held open side by side
// (block_timing.h) and timed in turns, block after block on the same protocol, the order
// alternating from round to round (candidate first, then incumbent first), so that drift
// (clocks, temperature, a neighbour's load) hits both. Each round gives one ratio: the
// candidate block's trimmed mean over the incumbent block's. Rounds go on until the 95 %
// interval of the median ratio, widened by the spread between the buffer sets the versions run
// on, settles the outcome (measure::classify_paired: positive, negative or neutral beyond the
// margin) or the budget ends (inconclusive, and said so).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "env/gpu_identity.h"
#include "measure/outcome.h"
#include "pipeline/block_timing.h"
#include "pipeline/comparison_summary.h"

namespace kopt::pipeline {

struct turns_settings {
  double block_ms = 25;     // [ms] of wall time a block aims at (its call count follows)
  double max_seconds = 20;  // [s] of wall time for all the rounds, at most
  std::size_t max_rounds = 400;
};

// One timed block of a comparison, as the record keeps it: which placement (buffer set) each
// version ran on shows whether a steady difference between two processes follows their memory.
struct block_record {
  std::size_t round = 0;
  int version = 0;     // 0: the candidate, 1: the incumbent
  int placement = -1;  // -1: the session did not say
  std::size_t calls = 0;
  double estimate_ms = 0;  // the block's 20 %-trimmed mean, as the round ratio uses it
};

struct turns_outcome {
  measure::outcome_evidence evidence; // inconclusive unless the rounds settled it
  std::string failure;                // "": none; else which version failed and why (no outcome then)
  int failed_version = -1;            // 0: the candidate, 1: the incumbent
  std::string stop;                   // "settled", "time limit", "round limit" or "failed"
  std::size_t rounds = 0;
  int block_calls = 0;  // calls per block after the first round
  std::vector<double> round_ratios;
  std::vector<double> candidate_ms;  // every sample, in order
  std::vector<double> incumbent_ms;
  std::vector<block_record> blocks;  // in the order they were timed
  double timer_tick_ms = 0;
  std::vector<std::string> warnings;  // another process on the GPU during a block, once each
  double seconds = 0;                 // [s] of wall time for the rounds
  // The GPU it ran on (UUID, SM clock, temperature, clock-event reasons) just before the first
  // round and just after the last: a record names its device, and a clock that fell is seen.
  std::optional<env::gpu_state> gpu_at_start;
  std::optional<env::gpu_state> gpu_at_end;
};

// Version 0 of `session` is the candidate, version 1 the incumbent. `expected_ms`: a median of
// the slower of the two (from their bench results), for the first round's block size.
turns_outcome compare_in_turns(block_timing& session, double expected_ms,
                               const turns_settings& settings = {});

// Records the first failure of version `version` (0: the candidate) and leaves no outcome.
void note_failure(turns_outcome& out, int version, const std::string& failure);

// The record the loop and `kopt compare` keep: the outcome's evidence, how it was measured,
// the round ratios, every block and every sample.
turns_record record_of(const turns_outcome& outcome);
json to_json(const turns_outcome& outcome);

// The same without the round ratios, blocks and samples: what a manifest or a tool's answer keeps.
comparison_summary summary_of(const turns_outcome& outcome);
json summary_json(const turns_outcome& outcome);

}  // namespace kopt::pipeline
