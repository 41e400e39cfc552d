#pragma once
// The part of a comparison's uncertainty that more rounds do not remove. A comparison in turns
// runs each version over a few sets of buffers (placements, harness/timing_blocks.h), and each
// set has a steady speed of its own: on an H100, the eight sets of a ~10 µs Triton softmax
// spread 2.4 % (median, fastest to slowest) within one process. The sets are drawn once per
// process and kept for the whole comparison, so rounds average away their own noise but not
// the luck of that draw: a median-of-rounds interval shrinks around a ratio that is off by it
// (a version compared with itself was called 1.4 % faster, interval [0.984, 0.990], after 128
// rounds; benchmarks/results/2026-12-06-h100-placement-interval.md). Here the unit is the pair
// of sets a round ran on: the mean log ratio of each pair, and Student's t over the pairs.

#include <cstddef>
#include <optional>
#include <vector>

#include "measure/statistics.h"

namespace kopt::measure {

// One round of a comparison in turns: the candidate block's estimate over the incumbent block's,
// and the sets the two blocks ran on (-1: the measuring process did not say).
struct paired_round {
  double ratio = 1;
  int candidate_placement = -1;
  int incumbent_placement = -1;
};

// The 95 % interval of the ratio over the pairs of sets the rounds ran on so far (the exponential
// of the mean log ratio per pair, ± Student's t quantile × its standard error): the sets are
// drawn alike, so the pairs seen are a sample of them, and fewer pairs give a wider interval
// rather than a wrong one. None with fewer than two pairs, or when a round does not say its
// sets: there is then no spread of sets to measure.
std::optional<interval> placement_interval(const std::vector<paired_round>& rounds);

}  // namespace kopt::measure
