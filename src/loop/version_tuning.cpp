#include "loop/version_tuning.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "kernel/tune_space.h"
#include "pipeline/measuring_child.h"
#include "tune/tune_run.h"
#include "tune/tuned_source.h"

namespace kopt::loop {

namespace fs = std::filesystem;

namespace {

// The version as the loop keeps it (its snapshot, and the kernel file once it is the best): the
// agent's text with the winner's values written in, not the tune's copy, which names the kernel's
// own files by their absolute path for its run folder (a CUDA or CUTLASS kernel's headers, a
// Triton module's folder on Python's import path).
std::string kept_text(const std::string& source, const kernel::planned_tune_space& space,
                      const tune::tune_winner& winner, const std::string& backend) {
  const auto configuration =
      std::find_if(space.allowed.begin(), space.allowed.end(),
                   [&](const kernel::tune_configuration& c) { return c.text() == winner.configuration; });
  if (configuration == space.allowed.end()) {
    throw error(fmt::format(
        "kopt loop --tune: the winner {} is not among the version's configurations (a bug in kopt)",
        winner.configuration));
  }
  return tune::tuned_source(source, *configuration, kernel::parse_backend_name(backend));
}

}  // namespace

version_tuning tune_version(const step_context& ctx, const fs::path& iteration_dir,
                            const std::string& source) {
  const loop_settings& s = ctx.settings;
  if (!s.tune) return {};
  const std::string label = s.target.kernel.string();
  if (kernel::read_tune_space(source, label, kernel::parse_backend_name(ctx.run.manifest.backend)).empty()) return {};
  if (!ctx.services.tune) throw error("kopt loop --tune: these measuring steps cannot tune (a bug in kopt)");
  tune::tune_request request;
  request.bench = pipeline::bench_request{s.target, s.job, s.atol, s.rtol, "", {}};
  request.strategy = s.tune->strategy;
  request.budget = s.tune->budget;
  request.seed = s.tune->seed;
  request.runs_root = iteration_dir;
  request.cache_folder = tune::default_tune_cache_folder();
  request.comparison = s.comparison;
  request.progress = [&ctx](const std::string& step) { ctx.say("tune: " + step); };
  request.warn = [&ctx](const std::string& what) { ctx.say("warning: " + what); };
  version_tuning tuning;
  kernel::planned_tune_space space;
  try {
    // The version's own space (annotations that do not read, restrictions that leave nothing at
    // the run's dimensions) is the agent's to mend: the version is rejected, its strategy blocked.
    space = tune::planned_space(s.target, source, "at the run's dimensions");
  } catch (const error& e) {
    tuning.failure = fmt::format("tune: {}", e.what());
    return tuning;
  }
  ctx.say(fmt::format("tune: {} with at most {} configurations", s.tune->strategy, s.tune->budget));
  // What the tune meets after that is the machine's or kopt's (a GPU that stopped answering, the
  // strategy's process): it stops this call as a bench's would, judging nothing, and the next
  // call evaluates the version again. A configuration that fails is the tune's own record.
  const tune::tune_outcome outcome = ctx.services.tune(request);
  const fs::path result_file = outcome.run_dir / "tune_result.json";
  const std::string where = fs::relative(result_file, ctx.run.dir).string();
  if (!outcome.result.winner) {
    tuning.failure = fmt::format("tune: none of the {} configurations measured passed the judge (see {})",
                                 outcome.result.measured.size(), where);
    return tuning;
  }
  tuned_values values;
  values.defines = outcome.result.winner->defines;
  values.tune_result = where;
  values.measured = static_cast<std::int64_t>(outcome.result.measured.size());
  values.allowed = static_cast<std::int64_t>(outcome.result.allowed);
  values.written_sha256 = sha256_hex(source);
  tuning.tuned_source = kept_text(source, space, *outcome.result.winner, ctx.run.manifest.backend);
  tuning.tuned = std::move(values);
  return tuning;
}

bool measured_from_its_snapshot(const std::optional<tuned_values>& tuned, const std::string& backend) {
  return tuned && pipeline::is_triton_backend(backend);
}

tuned_measurement::tuned_measurement(const loop_settings& settings, const std::optional<tuned_values>& tuned,
                                     const std::string& snapshot_text, const std::string& backend)
    : m_settings(settings) {
  if (!tuned) return;
  if (measured_from_its_snapshot(tuned, backend)) {
    m_copy.emplace(work_file_beside(settings.target.kernel, "tuned"), snapshot_text);
    m_settings.target.kernel = m_copy->path();
  } else {
    m_settings.target.defines.insert(m_settings.target.defines.end(), tuned->defines.begin(),
                                     tuned->defines.end());
  }
}

}  // namespace kopt::loop
