#pragma once
// What a front end (kopt's command line, its warm worker, its MCP server) hands the pipelines,
// made once where the front end starts and passed down to every command: so a test runs the
// real commands with a recorded worker where the GPU would be (recorded_worker.h).

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

#include "pipeline/measuring_worker.h"
#include "pipeline/reference_timing_cache.h"

namespace kopt::pipeline {

struct services {
  // A measuring worker for one command: the process worker (a child per job on this machine's
  // GPUs) unless a test records one.
  std::function<std::unique_ptr<measuring_worker>()> make_worker = make_process_worker;
  // Where the reference's timing is kept between benches; none: timed in every run.
  std::optional<std::filesystem::path> reference_timing_folder = default_reference_timing_folder();
};

}  // namespace kopt::pipeline
