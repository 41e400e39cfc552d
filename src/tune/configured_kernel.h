#pragma once
// One configuration as its bench measures it. A CUDA or CUTLASS kernel is its own file built
// with the values as -D, so that the builds ahead and the compile cache serve it. A Triton
// module has no build to pass them to: it is a copy with the values pinned (tuned_source.h),
// written under the run folder's configurations/, which imports its siblings from the module's
// own folder.

#include <filesystem>
#include <string_view>

#include "kernel/backend.h"
#include "kernel/tune_space.h"
#include "pipeline/bench_preparation.h"

namespace kopt::tune {

// The backend `target`'s kernel goes through (its --backend, else its file's extension).
kernel::backend backend_of(const pipeline::bench_target& target, std::string_view source);

pipeline::bench_target configured_target(const pipeline::bench_target& target, std::string_view source,
                                         const kernel::tune_configuration& configuration,
                                         const std::filesystem::path& run_dir);

}  // namespace kopt::tune
