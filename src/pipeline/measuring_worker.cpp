#include "pipeline/measuring_worker.h"

#include "core/error.h"

namespace kopt::pipeline {

std::unique_ptr<block_timing> measuring_worker::open_block_timing(const std::vector<harness::bench_job>& jobs,
                                                                  const env::gpu_device& device, int block_timeout_s) {
  (void)jobs;
  (void)device;
  (void)block_timeout_s;
  throw error("this measuring worker cannot time versions in turns");
}

}  // namespace kopt::pipeline
