#pragma once
// Choosing among candidates measured on different GPUs: each ratio is against the best on the
// candidate's own GPU, so two positive candidates whose intervals overlap are not told apart by
// those ratios. The two are then compared with each other in turns on one GPU (the settings'),
// and the one that comparison finds faster is chosen; when it cannot tell them apart, the
// smaller ratio stands. Candidates measured on the same GPU are chosen by their ratios alone,
// as a round on one GPU always was.

#include <cstdint>
#include <optional>

#include "loop/run_manifest.h"
#include "loop/step_context.h"

namespace kopt::loop {

inline constexpr const char* top_two_comparison_name = "top_two_comparison.json";

struct top_two_choice {
  int chosen = 0;    // the candidate to choose
  std::string said;  // how the comparison of the two decided, for the iteration's reason
};

// The candidate's ratio of medians against the best (1 when it was not compared).
double ratio_against_best(const candidate_record& c);

// Nothing when there are fewer than two positive candidates, the best two ran on the same GPU,
// or their intervals do not overlap. Otherwise compares them and writes the record into the
// round's folder (iter_vK/top_two_comparison.json). Throws kopt::error as held_open does.
std::optional<top_two_choice> recompare_top_two(const step_context& ctx, const iteration_record& round);

}  // namespace kopt::loop
