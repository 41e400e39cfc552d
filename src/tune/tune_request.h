#pragma once
// What kopt tune is asked (the command's and the MCP tool's options), read by every part of the
// search.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernel/check_shapes.h"
#include "pipeline/alternating_comparison.h"
#include "pipeline/bench_pipeline.h"
#include "pipeline/measuring_worker.h"

namespace kopt::tune {

struct tune_request {
  pipeline::bench_request bench;        // as kopt bench: kernel, reference (required), dimensions, protocol
  std::string strategy = "exhaustive";  // tune/tune_strategy.h
  std::optional<int>
      budget;  // configurations measured per shape, at most (failures count, cache hits do not)
  std::optional<double> minutes;            // no configuration starts after this long, per shape [min]
  std::uint64_t seed = 0;                   // the seed of the random, gp and tpe strategies
  std::vector<kernel::check_shape> shapes;  // --check-dims: each tuned on its own too
  // --gpus: with several, configurations are measured side by side, one per GPU, each wholly on
  // its GPU, through a worker of its own from make_worker. Empty: bench.target.gpu alone.
  std::vector<int> gpus;
  std::function<std::unique_ptr<pipeline::measuring_worker>()> make_worker;
  std::filesystem::path runs_root;                        // empty: tune_runs beside the kernel
  std::optional<std::filesystem::path> cache_folder;      // none: nothing is kept between tunes
  pipeline::turns_settings comparison;                    // the winner's comparison in turns
  std::function<void(const std::string& step)> progress;  // may be empty
  std::function<void(const std::string& what)> warn;      // what users must see (a GPU dropped); may be empty
};

}  // namespace kopt::tune
