#include "tune/shape_search.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/enum_names.h"
#include "core/error.h"
#include "pipeline/jobs_on_gpus.h"
#include "tune/configured_kernel.h"
#include "tune/winner_choice.h"

namespace kopt::tune {
namespace {

// Where a configuration is measured: the kernel, its text, and the folder its copies go in.
struct measured_kernel {
  std::string_view source;
  const std::filesystem::path& run_dir;
};

measured_configuration measure(const tune_request& request, const kernel::tune_configuration& c,
                               const std::string& label, const measured_kernel& kernel,
                               pipeline::measuring_worker& worker) {
  pipeline::bench_request bench = request.bench;
  bench.target = configured_target(request.bench.target, kernel.source, c, kernel.run_dir);
  if (request.progress)
    bench.progress = [&](const std::string& step) { request.progress(label + ": " + step); };
  const pipeline::bench_outcome o = pipeline::run_bench(bench, worker);
  measured_configuration m{c.text(), c.defines(), "", "", std::nullopt, std::nullopt, false};
  if (o.prepared.failed_build) {
    m.status = "build_failed";
    m.reason = o.prepared.failed_build->result.failure_reason;
    return m;
  }
  m.status = enum_name(o.result.status);
  m.reason = o.result.reason;
  if (o.result.ok() && o.result.kernel) {
    m.median_ms = o.result.kernel->median_ms;
    m.median_ci95_ms = o.result.kernel->median_ci95_ms;
  }
  return m;
}

std::vector<const measured_configuration*> ranked_by_median(
    const std::vector<measured_configuration>& measured) {
  std::vector<const measured_configuration*> ranked;
  for (const measured_configuration& m : measured) {
    if (m.passed()) ranked.push_back(&m);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const measured_configuration* a, const measured_configuration* b) {
                     return *a->median_ms < *b->median_ms;
                   });
  return ranked;
}

// Starts the builds of what the strategy will propose next (those not in the cache), as many as
// may run at once.
void build_ahead(tune_proposer& proposer, const std::vector<measured_point>& so_far,
                 const std::vector<kernel::tune_configuration>& configurations, const tune_cache& cache,
                 configuration_prebuilds& prebuilds) {
  for (const std::size_t next : proposer.upcoming(so_far, prebuilds.parallel() + 1)) {
    if (cache.holds(configurations[next])) continue;
    if (!prebuilds.start(configurations[next])) break;
  }
}

// Why no configuration may start now: "" when the budget and the time allow one more.
std::string limit_reached(const tune_request& request, int measured_or_started,
                          std::chrono::steady_clock::time_point began) {
  if (request.budget && measured_or_started >= *request.budget) {
    return fmt::format("stopped by --budget {}", *request.budget);
  }
  const std::chrono::duration<double, std::ratio<60>> elapsed = std::chrono::steady_clock::now() - began;
  if (request.minutes && elapsed.count() >= *request.minutes) {
    return fmt::format("stopped by --minutes {:g}", *request.minutes);
  }
  return "";
}

// The wave's configurations measured, one per GPU at once (with one GPU, in turn through
// `worker`); the results in the wave's order, whichever finished first. A GPU that stops
// answering is dropped from `gpus` and its configuration measured again on another.
std::vector<measured_configuration> measure_wave(
    const tune_request& request, const std::vector<kernel::tune_configuration>& configurations,
    const std::vector<std::size_t>& wave, const std::vector<std::string>& labels, const measured_kernel& kernel,
    configuration_prebuilds& prebuilds, std::vector<int>& gpus, pipeline::measuring_worker& worker) {
  std::vector<measured_configuration> results(wave.size());
  for (const std::size_t index : wave) prebuilds.wait(configurations[index]);
  if (gpus.size() == 1) {
    for (std::size_t i = 0; i < wave.size(); ++i) {
      results[i] = measure(request, configurations[wave[i]], labels[i], kernel, worker);
    }
    return results;
  }
  pipeline::jobs_on_gpus jobs;
  jobs.gpus = gpus;
  jobs.count = wave.size();
  jobs.make_worker = request.make_worker;
  jobs.run = [&](std::size_t i, int gpu, pipeline::measuring_worker& on_gpu) {
    tune_request there = request;
    there.bench.target.gpu = gpu;
    results[i] =
        measure(there, configurations[wave[i]], fmt::format("{} on GPU {}", labels[i], gpu), kernel, on_gpu);
  };
  jobs.on_dropped = [&](const pipeline::dropped_gpu& dropped) {
    gpus.erase(std::remove(gpus.begin(), gpus.end(), dropped.gpu), gpus.end());
    if (request.warn) {
      request.warn(
          fmt::format("GPU {} failed while it measured {} ({}): not used again; measured again on another "
                      "GPU",
                      dropped.gpu, configurations[wave[dropped.item]].text(), dropped.reason));
    }
  };
  pipeline::run_jobs_on_gpus(jobs);
  return results;
}

}  // namespace

shape_search search_shape(const tune_request& request, std::string_view source,
                          const kernel::planned_tune_space& tune, tune_proposer& proposer,
                          const tune_cache& cache, configuration_prebuilds& prebuilds,
                          const std::filesystem::path& dir, pipeline::measuring_worker& worker,
                          const std::function<void(const shape_search&)>& after_each) {
  const std::vector<kernel::tune_configuration>& configurations = tune.allowed;
  shape_search s{"every allowed configuration measured", {}, std::nullopt};
  const auto began = std::chrono::steady_clock::now();
  std::vector<int> gpus = request.gpus.empty() ? std::vector<int>{request.bench.target.gpu} : request.gpus;
  std::vector<measured_point> so_far;
  int measured = 0;
  const auto record = [&](std::size_t index, measured_configuration m) {
    s.measured.push_back(std::move(m));
    so_far.push_back({index, s.measured.back().passed() ? s.measured.back().median_ms : std::nullopt});
    after_each(s);
  };
  for (bool more = true; more;) {
    // A wave: as many configurations as there are GPUs, those in the cache recorded as they come.
    std::vector<std::size_t> wave;
    while (wave.size() < gpus.size()) {
      const std::optional<std::size_t> index = proposer.next(so_far, wave);
      if (!index) {
        more = false;
        break;
      }
      const bool seen = std::any_of(so_far.begin(), so_far.end(),
                                    [&](const measured_point& p) { return p.index == *index; });
      if (seen || std::find(wave.begin(), wave.end(), *index) != wave.end()) {
        throw error(fmt::format("the {} strategy proposed configuration {} twice: a bug in kopt",
                                request.strategy, configurations[*index].text()));
      }
      if (std::optional<measured_configuration> earlier = cache.read(configurations[*index])) {
        record(*index, std::move(*earlier));
        continue;
      }
      if (const std::string stop = limit_reached(request, measured + static_cast<int>(wave.size()), began);
          !stop.empty()) {
        s.stopped = stop;
        more = false;
        break;
      }
      wave.push_back(*index);
    }
    if (wave.empty()) continue;
    build_ahead(proposer, so_far, configurations, cache, prebuilds);
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < wave.size(); ++i) {
      const std::size_t planned =
          request.budget
              ? std::min<std::size_t>(configurations.size(), so_far.size() + *request.budget - measured)
              : configurations.size();
      labels.push_back(fmt::format("configuration {} of {} ({})", so_far.size() + i + 1, planned,
                                   configurations[wave[i]].text()));
    }
    const std::vector<measured_configuration> results =
        measure_wave(request, configurations, wave, labels, measured_kernel{source, dir}, prebuilds, gpus, worker);
    for (std::size_t i = 0; i < wave.size(); ++i) {
      ++measured;
      cache.keep(configurations[wave[i]], results[i]);
      record(wave[i], results[i]);
    }
  }
  const std::vector<const measured_configuration*> ranked = ranked_by_median(s.measured);
  if (!ranked.empty()) s.winner = choose_winner(request, source, ranked, configurations, dir, worker);
  return s;
}

}  // namespace kopt::tune
