#pragma once
// optimization_proposal.md: what the next version should be built from and why. The loop
// writes the template (the best version to start from, its diagnosis, the suggestions ranked
// with the memory, the strategies the memory blocks and prefers) and the agent fills in its
// plan and the "## Strategy tags" list that names the strategy it applies.

#include <cstdint>
#include <string>
#include <vector>

#include "loop/diagnosis_digest.h"
#include "loop/suggestion_ranking.h"

namespace kopt::loop {

struct known_strategy {
  std::string fingerprint;
  std::vector<std::string> tags;
  std::string why;  // "negative in this run (iteration 2)", "positive 3x on dram-bound cuda"
};

struct proposal_inputs {
  std::int64_t next_iteration = 1;
  std::string best_snapshot;  // relative to the run folder
  std::int64_t best_iteration = 0;
  double best_median_ms = 0;
  std::string best_speedup;    // "1.84x the reference", "" without one
  std::string best_tuned;      // tuned_text of the best's tuned values, "" when it was not tuned
  diagnosis_digest diagnosis;  // of the best version
  std::vector<ranked_suggestion> suggestions;
  std::vector<known_strategy> blocked;
  std::vector<known_strategy> preferred;
  std::string benchmarked_dims;         // "--rows=4096 --cols=1024"
  std::vector<std::string> check_dims;  // --check-dims: shapes the version must also pass at
};

std::string proposal_markdown(const proposal_inputs& in);

// "## Shapes that must also pass": "" without --check-dims.
std::string shapes_section(std::int64_t next_iteration, const std::string& benchmarked_dims,
                           const std::vector<std::string>& check_dims);

}  // namespace kopt::loop
