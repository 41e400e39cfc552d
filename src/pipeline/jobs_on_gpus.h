#pragma once
// Independent measurements (the comparisons or the benches one command is given) spread over
// GPUs, each GPU with a measuring worker of its own, one job at a time (gpu_dispatch.h). A job
// runs wholly on the GPU it was given, so none of its figures mixes devices; a GPU that stops
// answering is dropped and its job run again, from the start, on another.

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "pipeline/gpu_dispatch.h"
#include "pipeline/measuring_worker.h"

namespace kopt::pipeline {

struct jobs_on_gpus {
  std::vector<int> gpus;  // one GPU runs them one after another
  std::size_t count = 0;  // jobs 0 .. count-1, started in this order
  std::function<std::unique_ptr<measuring_worker>()> make_worker;
  // On a thread of its own: job `index` on `gpu` through that GPU's worker. It writes only
  // what belongs to `index`; a run again after its GPU failed overwrites it.
  std::function<void(std::size_t index, int gpu, measuring_worker& worker)> run;
  std::function<void(std::size_t index, int gpu)> finished;  // on the calling thread; may be empty
  std::function<void(const dropped_gpu&)> on_dropped;        // on the calling thread; may be empty
};

// Returns once every job finished; throws as dispatch_on_gpus does.
void run_jobs_on_gpus(const jobs_on_gpus& jobs);

}  // namespace kopt::pipeline
