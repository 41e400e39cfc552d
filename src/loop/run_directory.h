#pragma once
// The run folder's layout, the Python toolkit's so that its users find their way:
//   optimize_runs/run_YYYYMMDD_HHMMSS/   run_manifest.json final_summary.md preflight_check.*
//     iter_vK/ <stem>_vK.<ext> benchmark_result.json ... optimization_proposal.md

#include <cstdint>
#include <filesystem>
#include <string>

namespace kopt::loop {

// A new, empty run folder under `root` (default: optimize_runs/ beside the kernel), named by
// the UTC time; a suffix keeps two runs started in the same second apart.
std::filesystem::path create_run_dir(const std::filesystem::path& kernel, const std::filesystem::path& root = {});

std::filesystem::path iteration_dir(const std::filesystem::path& run_dir, std::int64_t iteration);

// "softmax_v2.cu" for softmax.cu at iteration 2.
std::string snapshot_name(const std::filesystem::path& kernel, std::int64_t iteration);

}  // namespace kopt::loop
