// The loop's steps on a real GPU: the pipelines, measuring through one worker.
#include "loop/loop_services.h"

namespace kopt::loop {

loop_services gpu_services(pipeline::measuring_worker& worker) {
  loop_services services;
  services.preflight = env::run_preflight;
  services.bench = [&worker](const pipeline::bench_request& request) { return pipeline::run_bench(request, worker); };
  services.profile = [&worker](const pipeline::profile_request& request) {
    return pipeline::run_profile(request, worker);
  };
  services.analyze = pipeline::run_analysis;
  services.compare = [&worker](const pipeline::comparison_request& request) {
    return pipeline::run_comparison(request, worker);
  };
  return services;
}

}  // namespace kopt::loop
