#include "pipeline/gpu_choice.h"

#include <fmt/format.h>

#include "core/error.h"
#include "env/gpu_identity.h"

namespace kopt::pipeline {

chosen_gpus choose_gpus(const std::string& gpus_option, const env::gpu_probe_result& probe) {
  const env::gpu_selection selection = env::parse_gpu_selection(gpus_option);  // a typo first, on any machine
  if (!probe.has_gpu()) {
    throw error(fmt::format("--gpus {}: {}", gpus_option,
                            probe.driver_problem.empty() ? "no GPU is visible" : probe.driver_problem));
  }
  const std::vector<int> named = env::resolve_gpu_selection(selection, probe);
  env::gpu_group group = env::identical_gpu_group(probe, named);
  // None of this kopt's own processes is on a GPU yet: every compute process there is another program's.
  group = env::without_busy_gpus(probe, group, env::compute_process_counts(probe, group.ordinals));
  chosen_gpus chosen;
  chosen.ordinals = group.ordinals;
  for (const env::gpu_refusal& refused : group.refused) chosen.left_out.push_back(refused.reason);
  if (chosen.ordinals.empty()) {
    throw error(fmt::format("--gpus {}: no GPU can be used ({}); name idle, identical GPUs", gpus_option,
                            chosen.left_out.empty() ? "none named" : chosen.left_out.front()));
  }
  return chosen;
}

}  // namespace kopt::pipeline
