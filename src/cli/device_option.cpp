#include "cli/device_option.h"

#include <cstdio>

#include <fmt/format.h>

#include "cli/option_checks.h"
#include "core/error.h"
#include "pipeline/gpu_choice.h"

namespace kopt::cli {

void add_gpu_option(CLI::App& sub, int& gpu, const std::string& description) {
  sub.add_option("--gpu", gpu, description)->default_val(0)->check(at_least(0, "a device ordinal"));
}

void add_gpus_option(CLI::App& sub, std::string& gpus, const std::string& what) {
  sub.add_option("--gpus", gpus,
                 fmt::format("{} over these GPUs, one at a time on each: all, or a list such as 0,2,3 (only "
                             "identical, idle GPUs are used; see docs/gpus.md)",
                             what));
}

std::vector<int> gpus_to_use(const CLI::App& sub, const std::string& gpus, int gpu,
                             const env::gpu_probe_result& probe) {
  if (gpus.empty()) return {gpu};
  if (sub.get_option("--gpu")->count() > 0) throw error("give --gpu or --gpus, not both");
  const pipeline::chosen_gpus chosen = pipeline::choose_gpus(gpus, probe);
  for (const std::string& line : chosen.left_out) std::fprintf(stderr, "kopt: warning: %s\n", line.c_str());
  return chosen.ordinals;
}

}  // namespace kopt::cli
