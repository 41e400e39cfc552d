#pragma once
// kopt tune: a kernel's tune space searched at its dimensions (tune/shape_search.h), then at each
// extra shape on its own; the run folder (tune_runs/tune_<timestamp>/) with tune_result.json,
// rewritten after each configuration, and the tuned kernel. Each configuration's result is kept
// in the cache (tune/tune_cache.h), so a repeated or interrupted tune measures only what it has
// not.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "kernel/tune_space.h"
#include "pipeline/measuring_worker.h"
#include "tune/tune_request.h"
#include "tune/tune_result.h"

namespace kopt::tune {

struct tune_outcome {
  tune_result result;
  std::filesystem::path run_dir;
};

// Throws kopt::error for a kernel that declares no tune space, a space the restrictions leave
// empty, a missing reference, and as run_bench does for usage and environment problems.
tune_outcome run_tune(const tune_request& request, pipeline::measuring_worker& worker);

// The space `target`'s kernel (its text: `source`) declares, planned at the target's dimensions.
// Throws kopt::error when it declares none or the restrictions leave nothing there (`where`:
// "at these dimensions", "at --N=7"): the kernel's to mend, before anything is measured.
kernel::planned_tune_space planned_space(const pipeline::bench_target& target, std::string_view source,
                                         const std::string& where);

// Where configurations' results are kept between tunes: tune/ in kopt's cache folder.
std::filesystem::path default_tune_cache_folder();

}  // namespace kopt::tune
