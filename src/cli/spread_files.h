#pragma once
// A command given several files at once (compare's candidates, bench's kernels): each file's
// work on one GPU of those --gpu/--gpus name (pipeline/jobs_on_gpus.h), its progress lines
// naming the file and the GPU, and a GPU that stops answering said on stderr.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline/measuring_worker.h"
#include "pipeline/services.h"

namespace kopt::cli {

using progress_function = std::function<void(const std::string& step)>;

struct spread_files {
  std::string command;             // "compare": the progress lines' "kopt compare: ..."
  std::vector<std::string> files;  // one job each, started in this order
  std::string gpus_option;         // --gpus; empty: every file on `gpu`
  int gpu = 0;                     // --gpu
  bool progress_wanted = true;
  // On a thread of its own: file `index` on `gpu`. It writes only what belongs to `index`.
  std::function<void(std::size_t index, int gpu, pipeline::measuring_worker& worker,
                     const progress_function&)>
      run;
  std::function<void(std::size_t index, int gpu)> finished;  // on the calling thread; may be empty
};

// Returns once every file's work finished. Throws kopt::error as gpus_to_use and
// pipeline::run_jobs_on_gpus do.
void run_spread_files(const CLI::App& sub, const spread_files& spread, const pipeline::services& services);

}  // namespace kopt::cli
