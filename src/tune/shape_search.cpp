#include "tune/shape_search.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/enum_names.h"
#include "core/error.h"
#include "tune/winner_choice.h"

namespace kopt::tune {
namespace {

measured_configuration measure(const tune_request& request, const kernel::tune_configuration& c,
                               const std::string& label, pipeline::measuring_worker& worker) {
  pipeline::bench_request bench = request.bench;
  for (const std::string& d : c.defines()) bench.target.defines.push_back(d);
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
    if (cache.read(configurations[next])) continue;
    if (!prebuilds.start(configurations[next])) break;
  }
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
  std::vector<measured_point> so_far;
  int measured = 0;
  while (const std::optional<std::size_t> index = proposer.next(so_far)) {
    if (std::any_of(so_far.begin(), so_far.end(),
                    [&](const measured_point& p) { return p.index == *index; })) {
      throw error(fmt::format("the {} strategy proposed configuration {} twice: a bug in kopt",
                              request.strategy, configurations[*index].text()));
    }
    const kernel::tune_configuration& c = configurations[*index];
    if (std::optional<measured_configuration> earlier = cache.read(c)) {
      s.measured.push_back(std::move(*earlier));
    } else {
      if (request.budget && measured >= *request.budget) {
        s.stopped = fmt::format("stopped by --budget {}", *request.budget);
        break;
      }
      const std::chrono::duration<double, std::ratio<60>> elapsed = std::chrono::steady_clock::now() - began;
      if (request.minutes && elapsed.count() >= *request.minutes) {
        s.stopped = fmt::format("stopped by --minutes {:g}", *request.minutes);
        break;
      }
      const std::size_t planned =
          request.budget
              ? std::min<std::size_t>(configurations.size(), so_far.size() + *request.budget - measured)
              : configurations.size();
      const std::string label =
          fmt::format("configuration {} of {} ({})", so_far.size() + 1, planned, c.text());
      build_ahead(proposer, so_far, configurations, cache, prebuilds);
      prebuilds.wait(c);
      s.measured.push_back(measure(request, c, label, worker));
      ++measured;
      cache.keep(c, s.measured.back());
    }
    const measured_configuration& m = s.measured.back();
    so_far.push_back({*index, m.passed() ? m.median_ms : std::nullopt});
    after_each(s);
  }
  const std::vector<const measured_configuration*> ranked = ranked_by_median(s.measured);
  if (!ranked.empty()) s.winner = choose_winner(request, source, ranked, configurations, dir, worker);
  return s;
}

}  // namespace kopt::tune
