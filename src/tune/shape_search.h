#pragma once
// One shape's search: the strategy proposes, each configuration is read from the cache or
// benched as kopt bench benches it (built with its -D values, judged against the reference,
// timed in a fresh measuring process), until the strategy has no more, the budget is spent or
// the time is up; then the winner is chosen (tune/winner_choice.h).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/tune_space.h"
#include "pipeline/measuring_worker.h"
#include "tune/configuration_prebuilds.h"
#include "tune/tune_cache.h"
#include "tune/tune_proposer.h"
#include "tune/tune_request.h"
#include "tune/tune_result.h"

namespace kopt::tune {

struct shape_search {
  std::string stopped;  // why no more were measured
  std::vector<measured_configuration> measured;
  std::optional<tune_winner> winner;
};

// `request`'s target is at the shape searched; `tune` its planned space (allowed not empty);
// `proposer` the strategy made for it (tune/tune_strategy.h).
// `prebuilds` builds what the strategy will propose next while a configuration is measured;
// with several GPUs (request.gpus) configurations are measured side by side, one per GPU.
// `after_each` sees the search after every configuration (the result file is rewritten then,
// so that a killed tune leaves what it measured). The winner's files go into `dir`.
shape_search search_shape(const tune_request& request, std::string_view source,
                          const kernel::planned_tune_space& tune, tune_proposer& proposer,
                          const tune_cache& cache, configuration_prebuilds& prebuilds,
                          const std::filesystem::path& dir, pipeline::measuring_worker& worker,
                          const std::function<void(const shape_search&)>& after_each);

}  // namespace kopt::tune
