#pragma once
// The GPUs work spreads over (--gpus all|LIST): the selection resolved on this host, kept to the
// largest group of identical GPUs (env/gpu_identity.h) that no other program computes on, since
// figures measured on each of them are read side by side (a round chooses among their ratios).

#include <string>
#include <vector>

#include "env/gpu_probe.h"

namespace kopt::pipeline {

struct chosen_gpus {
  std::vector<int> ordinals;          // the first measures what is not spread (the loop's v0)
  std::vector<std::string> left_out;  // one line per GPU not used, with the fact that kept it out
};

// Throws kopt::error (one line) for a value that names no GPU of this host, and when no GPU is
// left to use.
chosen_gpus choose_gpus(const std::string& gpus_option, const env::gpu_probe_result& probe);

}  // namespace kopt::pipeline
