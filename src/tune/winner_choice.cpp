#include "tune/winner_choice.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/files.h"
#include "measure/outcome.h"
#include "pipeline/comparison_pipeline.h"
#include "tune/configured_kernel.h"
#include "tune/tuned_source.h"

namespace kopt::tune {
namespace fs = std::filesystem;

tune_winner choose_winner(const tune_request& request, std::string_view source,
                          const std::vector<const measured_configuration*>& ranked,
                          const std::vector<kernel::tune_configuration>& configurations, const fs::path& dir,
                          pipeline::measuring_worker& worker) {
  const fs::path kernel = request.bench.target.kernel;
  const auto configuration_of = [&](const measured_configuration* m) {
    return *std::find_if(configurations.begin(), configurations.end(),
                         [&](const kernel::tune_configuration& c) { return c.text() == m->configuration; });
  };
  const kernel::backend backend = backend_of(request.bench.target, source);
  const auto write_tuned = [&](const measured_configuration* m, const std::string& name) {
    const fs::path file = dir / (kernel.stem().string() + name + kernel.extension().string());
    write_file_atomic(file, tuned_copy_source(source, configuration_of(m), backend, kernel));
    return file;
  };
  const measured_configuration* best = ranked[0];
  tune_winner w{
      best->configuration, best->defines, *best->median_ms, "", "the only configuration that passed",
      std::nullopt};
  if (ranked.size() > 1) {
    const measured_configuration* second = ranked[1];
    pipeline::file_comparison_request compare;
    compare.target = request.bench.target;
    compare.baseline = write_tuned(best, "_first");
    compare.candidate = write_tuned(second, "_second");
    compare.job = request.bench.job;
    compare.settings = request.comparison;
    if (request.progress) {
      compare.progress = [&](const std::string& step) {
        request.progress("the fastest two in turns: " + step);
      };
    }
    const pipeline::file_comparison c = pipeline::compare_files(compare, worker);
    const measure::outcome_evidence& e = c.turns.evidence;
    const std::string outcome =
        c.turns.failure.empty() ? std::string(measure::to_string(e.verdict)) : "failed";
    w.comparison =
        winner_comparison{second->configuration, outcome, e.ratio, {e.ratio_ci95.low, e.ratio_ci95.high}};
    if (outcome == "positive") {
      w = tune_winner{second->configuration, second->defines, *second->median_ms, "", "", w.comparison};
      w.reason = fmt::format("faster than {} in turns ({:.4f}x its time)", best->configuration, e.ratio);
    } else {
      w.reason = fmt::format("fastest median; the runner-up {} was {} in turns ({:.4f}x its time)",
                             second->configuration, outcome, e.ratio);
    }
  }
  const auto chosen = std::find_if(ranked.begin(), ranked.end(), [&](const measured_configuration* m) {
    return m->configuration == w.configuration;
  });
  w.tuned_file = write_tuned(*chosen, "_tuned").string();
  return w;
}

}  // namespace kopt::tune
