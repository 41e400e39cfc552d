#pragma once
// A comparison of two versions as kopt's documents keep it, defined once: its outcome and how it
// was measured (a loop's manifest, `kopt compare`'s answer, an MCP tool's) and, for a comparison
// in turns, its whole record with every round, block and sample (comparison.json, --json-out).
// The writer and the checking reader both come from these definitions (core/document.h).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "env/gpu_identity.h"
#include "measure/outcome.h"

namespace kopt::pipeline {

// The fields after `method` are a comparison in turns' own: a comparison of two benches' samples
// (the loop without a library kept for one of its versions) has none of them.
struct comparison_summary : measure::outcome_record {
  std::string method;                         // how the two versions were timed, in words
  std::optional<std::string> stop;            // settled, time limit, round limit or failed
  std::optional<std::string> failure;         // which version failed and why (no outcome then)
  std::optional<std::string> failed_version;  // candidate or incumbent
  std::optional<std::size_t> rounds;
  std::optional<int> block_calls;  // calls per block after the first round
  std::optional<double> seconds;   // [s] of wall time for the rounds
  std::optional<double> timer_tick_ms;
  std::optional<std::vector<std::string>> warnings;  // another process on the GPU during a block
  std::optional<env::gpu_state> gpu_at_start;
  std::optional<env::gpu_state> gpu_at_end;
};
BOOST_DESCRIBE_STRUCT(comparison_summary, (measure::outcome_record),
                      (method, stop, failure, failed_version, rounds, block_calls, seconds, timer_tick_ms,
                       warnings, gpu_at_start, gpu_at_end))

// One timed block, as the whole record lists it.
struct block_entry {
  std::size_t round = 0;
  std::string version;           // candidate or incumbent
  std::optional<int> placement;  // the buffer set it ran on; none when the session did not say
  std::size_t calls = 0;
  double estimate_ms = 0;
};
BOOST_DESCRIBE_STRUCT(block_entry, (), (round, version, placement, calls, estimate_ms))

struct turns_record : comparison_summary {
  std::vector<double> round_ratios;
  std::vector<block_entry> blocks;  // in the order they were timed
  std::vector<double> candidate_samples_ms;
  std::vector<double> incumbent_samples_ms;
};
BOOST_DESCRIBE_STRUCT(turns_record, (comparison_summary),
                      (round_ratios, blocks, candidate_samples_ms, incumbent_samples_ms))

}  // namespace kopt::pipeline
