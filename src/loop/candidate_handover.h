#pragma once
// How an agent hands over a round of candidates (--candidates K): kopt empties
// iter_vN/candidates/ and names it in KOPT_CANDIDATES_DIR; the agent writes there, for each
// candidate J in 1..K, the kernel as cand_J.<the kernel's extension> (cand_1.cu) and its own
// proposal as cand_J.md, whose "## Strategy tags" list names the candidate's strategy.
// Nothing else belongs there (files starting with '.' are ignored).

#include <filesystem>
#include <string>
#include <vector>

namespace kopt::loop {

// A candidate the agent handed over.
struct handed_candidate {
  int candidate = 0;               // J, from its file name cand_J
  std::filesystem::path kernel;    // cand_J.<the kernel's extension>
  std::filesystem::path proposal;  // cand_J.md, with its "## Strategy tags"
};

struct candidate_handover {
  std::vector<handed_candidate> candidates;  // by J
  std::string problem;                       // "" when the folder holds a valid handover; else why not
};

// Creates the folder empty (what an earlier agent run left there is removed).
void prepare_handover(const std::filesystem::path& dir);

// What the agent left in `dir`, checked: at least one candidate, at most `max_candidates`,
// numbered 1..max_candidates, each with its proposal, nothing else.
candidate_handover read_handover(const std::filesystem::path& dir, const std::filesystem::path& kernel,
                                 int max_candidates);

}  // namespace kopt::loop
