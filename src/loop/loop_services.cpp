// The loop's steps on a real GPU: the pipelines, measuring through one worker.
#include "loop/loop_services.h"

namespace kopt::loop {

loop_services gpu_services(pipeline::measuring_worker& worker) {
  loop_services services;
  services.preflight = env::run_preflight;
  services.bench = [&worker](const pipeline::bench_request& request) {
    return pipeline::run_bench(request, worker);
  };
  services.profile = [&worker](const pipeline::profile_request& request) {
    return pipeline::run_profile(request, worker);
  };
  services.analyze = pipeline::run_analysis;
  services.probe_gpus = [&worker] { return worker.probe_gpus(); };
  services.compare = [&worker](const pipeline::comparison_request& request) {
    return pipeline::run_comparison(request, worker);
  };
  services.tune = [&worker](const tune::tune_request& request) { return tune::run_tune(request, worker); };
  return services;
}

loop_services gpu_services(std::shared_ptr<pipeline::measuring_worker> worker) {
  loop_services services = gpu_services(*worker);
  // Each step keeps the worker alive as long as any copy of the steps.
  const auto owning = [worker](auto step) {
    return [worker, step](const auto& request) { return step(request); };
  };
  services.bench = owning(services.bench);
  services.profile = owning(services.profile);
  services.compare = owning(services.compare);
  services.tune = owning(services.tune);
  services.probe_gpus = [worker] { return worker->probe_gpus(); };
  return services;
}

}  // namespace kopt::loop
