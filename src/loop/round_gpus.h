#pragma once
// The GPUs a round of candidates spreads over (--gpus all|LIST): the selection resolved on this
// host, kept to the largest group of identical GPUs (env/gpu_identity.h) that no other program
// computes on, since a round chooses among ratios measured on each of them.

#include <string>
#include <vector>

#include "env/gpu_probe.h"

namespace kopt::loop {

struct round_gpus {
  std::vector<int> ordinals;          // the first measures everything outside rounds too
  std::vector<std::string> left_out;  // one line per GPU not used, with the fact that kept it out
};

// Throws kopt::error (one line) for a value that names no GPU of this host, and when no GPU is
// left to use.
round_gpus choose_round_gpus(const std::string& gpus_option, const env::gpu_probe_result& probe);

}  // namespace kopt::loop
