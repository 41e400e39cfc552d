#pragma once
// kopt tune: every allowed configuration of a kernel's tune space, in the strategy's order and
// up to the budget, benched as kopt bench benches (built, judged against the reference, timed
// in a fresh measuring process); the fastest two that passed are then compared in turns, and
// only that comparison names the winner. Each configuration's result is kept in the cache, so a
// repeated or interrupted tune measures only what it has not; the run folder's tune_result.json
// is rewritten after each configuration.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "pipeline/alternating_comparison.h"
#include "pipeline/bench_pipeline.h"
#include "pipeline/measuring_worker.h"
#include "tune/tune_result.h"

namespace kopt::tune {

struct tune_request {
  pipeline::bench_request bench;        // as kopt bench: kernel, reference (required), dimensions, protocol
  std::string strategy = "exhaustive";  // tune/tune_strategy.h
  std::optional<int> budget;        // configurations measured, at most (failures count, cache hits do not)
  std::optional<double> minutes;    // no configuration starts after this long [min]
  std::uint64_t seed = 0;           // the random and tpe strategies' seed
  std::filesystem::path runs_root;  // empty: tune_runs beside the kernel
  std::optional<std::filesystem::path> cache_folder;      // none: nothing is kept between tunes
  pipeline::turns_settings comparison;                    // the winner's comparison in turns
  std::function<void(const std::string& step)> progress;  // may be empty
};

struct tune_outcome {
  tune_result result;
  std::filesystem::path run_dir;
};

// Throws kopt::error for a kernel that declares no tune space, a space the restrictions leave
// empty, a missing reference, and as run_bench does for usage and environment problems.
tune_outcome run_tune(const tune_request& request, pipeline::measuring_worker& worker);

// Where configurations' results are kept between tunes: tune/ in kopt's cache folder.
std::filesystem::path default_tune_cache_folder();

}  // namespace kopt::tune
