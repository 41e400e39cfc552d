#pragma once
// What the parent hands one measuring child: its private folder, its job and result files, the
// request that starts it (the chosen GPU only, a Triton cache of its own, a reference's cut-down
// environment) and the seal its result must carry. The folder goes when this does.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/file_lock.h"
#include "core/subprocess.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "pipeline/child_seal.h"

namespace kopt::pipeline {

struct child_launch {
  std::filesystem::path work;
  std::filesystem::path job_file;
  std::filesystem::path result_file;
  process_request request;
  child_seal seal;

  child_launch(const std::vector<std::string>& wrapper, const harness::bench_job& job,
               const env::gpu_device& device);
  ~child_launch();
  child_launch(const child_launch&) = delete;
  child_launch& operator=(const child_launch&) = delete;

  // The job as it is now, in a file made afresh (nothing planted at its name is written through).
  void write_job(const harness::bench_job& job) const;
};

// The file whose lock says a kopt is measuring on `device` (it may not exist yet).
std::filesystem::path gpu_lock_path(const env::gpu_device& device);

// One measuring kopt per GPU at a time (two would slow each other down): the lock on `device`,
// taken, waiting for another kopt with a line on stderr when it holds it.
std::unique_ptr<file_lock> lock_gpu_for_measuring(const env::gpu_device& device);

}  // namespace kopt::pipeline
