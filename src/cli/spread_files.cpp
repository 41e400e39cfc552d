#include "cli/spread_files.h"

#include <cstdio>

#include <fmt/format.h>

#include "cli/device_option.h"
#include "cli/terminal.h"
#include "pipeline/jobs_on_gpus.h"

namespace kopt::cli {

void run_spread_files(const CLI::App& sub, const spread_files& spread, const pipeline::services& services) {
  const std::vector<int> gpus =
      spread.gpus_option.empty()
          ? std::vector<int>{spread.gpu}
          : gpus_to_use(sub, spread.gpus_option, spread.gpu, services.make_worker()->probe_gpus());
  const progress_function terminal = progress_on_terminal(spread.command, spread.progress_wanted);
  // With one file on one GPU the lines stay as a single run prints them.
  const bool named = spread.files.size() > 1 || gpus.size() > 1;
  pipeline::jobs_on_gpus jobs;
  jobs.gpus = gpus;
  jobs.count = spread.files.size();
  jobs.make_worker = services.make_worker;
  jobs.run = [&](std::size_t index, int gpu, pipeline::measuring_worker& worker) {
    progress_function progress;
    if (terminal) {
      progress = [&terminal, named, gpu, &file = spread.files[index]](const std::string& step) {
        terminal(named ? fmt::format("{} on GPU {}: {}", file, gpu, step) : step);
      };
    }
    spread.run(index, gpu, worker, progress);
  };
  jobs.finished = spread.finished;
  jobs.on_dropped = [&](const pipeline::dropped_gpu& dropped) {
    std::fprintf(stderr,
                 "kopt: warning: GPU %d failed while it measured %s (%s): not used again; measured again on "
                 "another GPU\n",
                 dropped.gpu, spread.files[dropped.item].c_str(), dropped.reason.c_str());
  };
  pipeline::run_jobs_on_gpus(jobs);
}

}  // namespace kopt::cli
