#pragma once
// The run folder's layout, the Python toolkit's so that its users find their way:
//   optimize_runs/run_YYYYMMDD_HHMMSS/   run_manifest.json final_summary.md preflight_check.*
//     iter_vK/ <stem>_vK.<ext> benchmark_result.json ... optimization_proposal.md
//       cand_J/ <stem>_vK_cJ.<ext> benchmark_result.json ...   (a round of candidates, --candidates)
//       candidates/                    where the agent hands over the next round's candidates

#include <cstdint>
#include <filesystem>
#include <string>

namespace kopt::loop {

// Files of a version's folder that kopt reads again after the version's iteration.
// The library its bench measured, loaded again for comparisons in turns with later versions.
inline constexpr const char* kept_library_name = "kernel_library.so";
// The whole comparison with its parent (every sample, the round ratios); the manifest keeps its
// summary.
inline constexpr const char* comparison_file_name = "comparison.json";
// The version's diagnosis from its profile (analyze/analysis_json.h): the next proposal, the
// report and the speed-of-light bound's FLOP peak read it.
inline constexpr const char* analysis_file_name = "analysis.json";
// A candidate's proposal as the agent handed it over (its strategy tags).
inline constexpr const char* candidate_proposal_name = "candidate_proposal.md";

// A new, empty run folder under `root` (default: optimize_runs/ beside the kernel), named by
// the UTC time; a suffix keeps two runs started in the same second apart.
std::filesystem::path create_run_dir(const std::filesystem::path& kernel, const std::filesystem::path& root = {});

std::filesystem::path iteration_dir(const std::filesystem::path& run_dir, std::int64_t iteration);

// "softmax_v2.cu" for softmax.cu at iteration 2.
std::string snapshot_name(const std::filesystem::path& kernel, std::int64_t iteration);

// iter_vK/cand_J: the evidence of candidate J of iteration K.
std::filesystem::path candidate_dir(const std::filesystem::path& run_dir, std::int64_t iteration,
                                    int candidate);

// "softmax_v2_c1.cu" for candidate 1 of iteration 2.
std::string candidate_snapshot_name(const std::filesystem::path& kernel, std::int64_t iteration,
                                    int candidate);
// A tuned candidate's snapshot (--tune): beside the agent's, "<its stem>_tuned<extension>".
std::string tuned_snapshot_name(const std::filesystem::path& candidate_snapshot);

// The text of a version's snapshot (`snapshot`, relative to the run folder), checked against the
// SHA-256 the manifest recorded for it: "" and `failure` set ("its snapshot ... is missing" or
// "... changed since it was measured") otherwise. The run's files are kopt's: a snapshot changed
// behind its back is not the version kopt measured.
std::string checked_snapshot(const std::filesystem::path& run_dir, const std::string& snapshot,
                             const std::string& sha256, std::string& failure);

// iter_vK/candidates: where the agent writes the candidates of iteration K+1.
std::filesystem::path handover_dir(const std::filesystem::path& run_dir, std::int64_t iteration);

}  // namespace kopt::loop
