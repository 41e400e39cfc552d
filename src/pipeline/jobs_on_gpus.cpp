#include "pipeline/jobs_on_gpus.h"

#include <map>

namespace kopt::pipeline {

void run_jobs_on_gpus(const jobs_on_gpus& jobs) {
  // One worker per GPU, made on the calling thread before any job starts: a worker keeps
  // state between jobs (a child started ahead, warm processes) and serves one thread at a time.
  std::map<int, std::unique_ptr<measuring_worker>> workers;
  for (const int gpu : jobs.gpus) workers[gpu] = jobs.make_worker();
  gpu_dispatch d;
  d.gpus = jobs.gpus;
  for (std::size_t i = 0; i < jobs.count; ++i) d.pending.push_back(i);
  d.start = [&](std::size_t index, int gpu) -> gpu_work {
    measuring_worker& worker = *workers.at(gpu);
    return [&jobs, &worker, index, gpu] { jobs.run(index, gpu, worker); };
  };
  d.finish = [&](std::size_t index, int gpu) {
    if (jobs.finished) jobs.finished(index, gpu);
  };
  // With several GPUs, one that the driver listed at the start and no longer lists failed; the
  // job's own errors (a bad file, no GPU at all) are the job's, and so is any error with one GPU,
  // which has nowhere else to send its job.
  if (jobs.gpus.size() > 1) {
    const env::gpu_probe_result at_start = workers.at(jobs.gpus.front())->probe_gpus();
    d.gpu_failed = [&workers, at_start](int gpu) {
      return at_start.device(gpu) != nullptr && workers.at(gpu)->probe_gpus().device(gpu) == nullptr;
    };
  }
  d.on_dropped = jobs.on_dropped;
  dispatch_on_gpus(d);
}

}  // namespace kopt::pipeline
