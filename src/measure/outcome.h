#pragma once
// The outcome of comparing two versions' times, and the one rule that decides it: is the
// candidate faster than the incumbent (the version it was built from, or the best so far)
// beyond the noise? The 95 % interval of the ratio of medians, candidate over incumbent, must
// settle it:
//   positive      the whole interval below 1 - m (faster beyond the margin),
//   negative      the whole interval above 1 + m,
//   neutral       the whole interval inside [1 - m, 1 + m],
//   inconclusive  otherwise (the samples cannot tell yet), and said so;
// with the margin m = max(1 %, 2 timer steps / the incumbent's median). "Lower median than
// the previous iteration" (the Python toolkit's rule) calls an unchanged kernel positive
// about half the time; this rule does not. Rejected (build, validation, judge, profile
// failures) is decided before any timing and is not this rule's. The interval comes from the
// samples of two separate runs (classify_against) or from rounds in turns (classify_paired);
// the rule is the same. docs/compare.md says why bench's verdict against its reference
// (comparison.h) is not yet this rule.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "core/json_io.h"
#include "measure/placement_interval.h"
#include "measure/statistics.h"

namespace kopt::measure {

enum class outcome { positive, negative, neutral, inconclusive, rejected };
BOOST_DESCRIBE_ENUM(outcome, positive, negative, neutral, inconclusive, rejected)

std::string_view to_string(outcome o);
// Throws kopt::error for a name that is not an outcome.
outcome parse_outcome(const std::string& name);

struct outcome_evidence {
  outcome verdict = outcome::inconclusive;
  double ratio = 1;                  // median(candidate) / median(incumbent)
  interval ratio_ci95;
  double margin = 0.01;              // m
  double candidate_median_ms = 0;
  double incumbent_median_ms = 0;
};

// `timer_tick_ms` is the timer's step (0 when unknown). Needs at least 2 samples per side;
// fewer is inconclusive.
outcome_evidence classify_against(const std::vector<double>& candidate_ms, const std::vector<double>& incumbent_ms,
                                  double timer_tick_ms);

// A comparison in turns (pipeline/alternating_comparison.h): each round holds the candidate
// block's estimate over the incumbent block's and the sets of buffers the two ran on. The ratio
// is the rounds' median; its interval covers both the distribution-free one of that median (order
// statistics: what changes from one round to the next, clocks or a neighbour's load, hits both
// versions of a round alike and does not pass for a difference) and the placement interval over
// the pairs of sets (placement_interval.h: the luck of each process's draw of sets, which no
// number of rounds averages away). Inconclusive with fewer than `minimum_paired_rounds` rounds.
// The two medians are for the record.
inline constexpr std::size_t minimum_paired_rounds = 6;
outcome_evidence classify_paired(const std::vector<paired_round>& rounds, double candidate_median_ms,
                                 double incumbent_median_ms, double timer_tick_ms);

// outcome_evidence as documents keep it (a loop's manifest, a comparison's record, a tool's
// answer): the verdict by name, the interval as [low, high].
struct outcome_record {
  measure::outcome outcome = measure::outcome::inconclusive;
  double ratio = 1;
  std::array<double, 2> ratio_ci95{};
  double margin = 0;
  double candidate_median_ms = 0;
  double incumbent_median_ms = 0;
};
BOOST_DESCRIBE_STRUCT(outcome_record, (),
                      (outcome, ratio, ratio_ci95, margin, candidate_median_ms, incumbent_median_ms))

outcome_record record_of(const outcome_evidence& evidence);
json to_json(const outcome_evidence& evidence);

}  // namespace kopt::measure
