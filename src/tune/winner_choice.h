#pragma once
// Who wins a tune: the fastest two configurations that passed, by median, compared in turns from
// copies of the kernel with their values written in. The runner-up wins only when the comparison
// finds it faster; two medians from separate processes never name the winner by themselves.

#include <filesystem>
#include <string_view>
#include <vector>

#include "kernel/tune_space.h"
#include "pipeline/measuring_worker.h"
#include "tune/tune_request.h"
#include "tune/tune_result.h"

namespace kopt::tune {

// `ranked`: the configurations that passed, fastest median first (at least one). Writes
// <stem>_first, <stem>_second (the comparison's two files) and <stem>_tuned (the winner's) into
// `dir`.
tune_winner choose_winner(const tune_request& request, std::string_view source,
                          const std::vector<const measured_configuration*>& ranked,
                          const std::vector<kernel::tune_configuration>& configurations,
                          const std::filesystem::path& dir, pipeline::measuring_worker& worker);

}  // namespace kopt::tune
