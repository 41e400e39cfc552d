#include "loop/loop_step.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/utc_time.h"
#include "env/preflight_writer.h"
#include "kernel/backend.h"
#include "loop/candidate_round.h"
#include "loop/iteration_redo.h"
#include "loop/outcome_records.h"
#include "loop/run_directory.h"
#include "loop/run_ledger.h"
#include "loop/run_opening.h"
#include "loop/step_context.h"
#include "loop/strategy_tags.h"
#include "loop/toolkit_memory_offer.h"
#include "loop/toolkit_run_adoption.h"
#include "loop/version_judgement.h"
#include "loop/version_tuning.h"
#include "loop/work_file.h"
#include "memory/memory_store.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// What this call evaluates: the run's next iteration, or (`--iteration K`, K the run's last) that
// iteration again, as its next attempt.
struct planned_iteration {
  std::int64_t iteration = 0;
  bool redo = false;
};

planned_iteration plan_iteration(const run_manifest& m, const loop_settings& s, bool redo_allowed) {
  const auto next = static_cast<std::int64_t>(m.iterations.size());
  if (s.iteration && *s.iteration != next) {
    const bool last = next > 0 && *s.iteration == next - 1;
    if (last && redo_allowed) return {*s.iteration, true};
    throw error(
        fmt::format("--iteration {} is neither the run's next iteration ({}) nor its last (v{}), the only "
                    "one that can be redone "
                    "(later versions were built on the others): leave --iteration out, or give {}",
                    *s.iteration, next, next - 1, next));
  }
  if (next > m.max_iterations) {
    throw error(fmt::format(
        "the run has done all its iterations (v0 to v{}): raise --max-iterations to go on, or start "
        "a new run",
        m.max_iterations));
  }
  return {next, false};
}

std::int64_t next_iteration(const run_manifest& m, const loop_settings& s) {
  return plan_iteration(m, s, false).iteration;
}

// preflight_check.{md,json} in the run folder; a machine that is not ready stops the run.
void run_preflight_check(const loop_settings& s, const loop_services& services, kernel::backend backend,
                         const fs::path& dir) {
  env::preflight_options options;
  options.backend = backend;
  options.gpu = s.target.gpu;
  options.arch = s.target.arch;
  options.nvcc_bin = s.target.nvcc_bin;
  options.ncu_bin = s.ncu_bin;
  const env::preflight_report report = services.preflight(options);
  write_json_file(dir / preflight_check_json, env::preflight_json(report));
  write_file_atomic(dir / preflight_check_md, env::preflight_markdown(report));
  const auto problems = report.problems();
  if (problems.empty()) return;
  throw error(fmt::format("not ready: {}: {}; {} (see {})", problems.front()->name, problems.front()->value,
                          problems.front()->fix, (dir / preflight_check_md).string()));
}

// The tags the agent gave for this version in the previous iteration's proposal.
std::vector<std::string> strategy_tags_for(const fs::path& run_dir, std::int64_t iteration) {
  if (iteration == 0) return {"baseline"};
  const fs::path proposal = iteration_dir(run_dir, iteration - 1) / "optimization_proposal.md";
  if (!fs::exists(proposal)) return {};
  return strategy_of_proposal(read_text_file(proposal, "optimization proposal"));
}

// A run continued is held against the ledger before anything else (run_ledger.h): a folder
// changed outside kopt is refused, naming the file.
record_check checked_run(const opened_run& run, const memory::memory_store& store) {
  return run.fresh ? record_check{} : verify_before_iteration(run.dir, run.manifest, store);
}

// The version in the kernel file as iteration k.
step_outcome run_single_version(const step_context& ctx, std::int64_t k) {
  run_manifest& m = ctx.run.manifest;
  const std::int64_t attempt = next_attempt(m, k);
  ctx.say(fmt::format("iteration v{}{} in {}", k, attempt > 1 ? fmt::format(" (attempt {})", attempt) : "",
                      ctx.run.dir.string()));
  const fs::path dir = iteration_dir(ctx.run.dir, k);
  fs::remove_all(dir);  // what a killed call left of this iteration
  fs::create_directories(dir);
  const std::string source = read_text_file(ctx.settings.target.kernel, "kernel");
  iteration_record r;
  r.iteration = k;
  r.attempt = attempt;
  const fs::path& origin =
      ctx.settings.version_origin.empty() ? ctx.settings.target.kernel : ctx.settings.version_origin;
  if (const std::string file = fs::absolute(origin).string(); file != m.kernel) r.kernel_file = file;
  r.parent = m.best;
  r.tags = strategy_tags_for(ctx.run.dir, k);
  if (!r.tags.empty()) r.fingerprint = memory::strategy_fingerprint(m.backend, r.tags);
  std::string blocked = blocked_strategy(ctx, r);
  // A strategy is judged at its best configuration: the version is tuned first (--tune).
  const version_tuning tuning = blocked.empty() ? tune_version(ctx, dir, source) : version_tuning{};
  if (blocked.empty()) blocked = tuning.failure;
  r.tuned = tuning.tuned;
  const std::string& version = tuning.tuned ? tuning.tuned_source : source;
  // Named after the run's kernel file, whichever file this version came from.
  r.snapshot = (fs::path(dir.filename()) / snapshot_name(m.kernel, k)).string();
  r.source_sha256 = sha256_hex(version);
  write_file_atomic(ctx.run.dir / r.snapshot, version);
  // The reference beside it, as the Python toolkit's iteration folders have it (frozen at v0 by
  // its hash: each copy is the one this version was judged against).
  if (!m.reference.empty()) {
    const fs::path reference = m.reference;
    write_file_atomic(dir / reference.filename(), read_text_file(reference, "reference"));
  }

  const tuned_measurement measured_as(ctx.settings, r.tuned, version, m.backend);
  const step_context version_ctx{measured_as.settings(), ctx.services, ctx.progress, ctx.run, ctx.store};
  judge_version(version_ctx, k, dir, r, fmt::format("iteration v{}", k), blocked);
  if (r.eligible && (r.outcome == version_outcome::baseline || r.outcome == version_outcome::positive))
    m.best = k;
  block_if_failed(m, r);
  r.finished_at = utc_timestamp();
  m.iterations.push_back(r);
  m.updated_at = r.finished_at;
  commit_iteration(ctx, r);
  record_in_memory(m, r, ctx.store);

  step_outcome outcome;
  outcome.run_dir = ctx.run.dir;
  outcome.manifest = m;
  outcome.record = r;
  outcome.problem_changed = declared_another_problem(r);
  return outcome;
}

// --preflight-only: the machine checked into the run folder, nothing planned (no dimensions
// needed) and no run started; the backend is the file's (or --backend's).
step_outcome check_machine_only(const loop_settings& settings, const loop_services& services) {
  require_kernel_file(settings);
  const kernel::backend backend = kernel_file_backend(settings);
  step_outcome outcome;
  outcome.run_dir = make_run_folder(settings);
  const std::unique_ptr<file_lock> lock = lock_run_folder(outcome.run_dir);
  run_preflight_check(settings, services, backend, outcome.run_dir);
  if (fs::exists(outcome.run_dir / run_manifest_name)) outcome.manifest = read_run_manifest(outcome.run_dir);
  return outcome;
}

// One step of the run in --run-dir (or a new one): a killed call's round first, else one version.
step_outcome step_run(const loop_settings& settings, const loop_services& services,
                      const step_progress& progress) {
  opened_run run = open_run(settings);
  run_manifest& m = run.manifest;
  if (run.fresh) run_preflight_check(settings, services, kernel::parse_backend_name(m.backend), run.dir);
  memory::memory_store store = memory::memory_store::open(settings.memory_db);
  const record_check checked = checked_run(run, store);
  replay_into_memory(m, store);  // outcomes a killed call committed but did not record
  const std::vector<std::string> notices =
      run.fresh ? bring_toolkit_memory(settings, store) : std::vector<std::string>{};
  const step_context ctx{settings, services, progress, run, store};
  // A killed call's round first: its candidates are in the manifest.
  if (m.open_round) {
    step_outcome outcome = finish_round(ctx);
    outcome.run_check = checked;
    return outcome;
  }
  const planned_iteration planned = plan_iteration(m, settings, true);
  if (planned.redo) supersede_last_iteration(ctx);
  step_outcome outcome = run_single_version(ctx, planned.iteration);
  outcome.run_check = checked;
  outcome.notices = notices;
  return outcome;
}

// The last iteration's proposal names `tags` for the version that comes next.
void name_next_strategy(const fs::path& run_dir, const run_manifest& m,
                        const std::vector<std::string>& tags) {
  if (tags.empty() || m.iterations.empty()) return;
  const fs::path proposal =
      iteration_dir(run_dir, m.iterations.back().iteration) / "optimization_proposal.md";
  write_file_atomic(proposal, with_strategy_tags(read_text_file(proposal, "optimization proposal"), tags));
}

// A run folder of the Python toolkit's (toolkit_run_adoption.h): its files set aside, v0 and the
// toolkit's best judged from their snapshots, then the call's own version as the next iteration
// (unless it is one of those two).
step_outcome continue_adoption(const loop_settings& settings, const loop_services& services,
                               const step_progress& progress, adoption_step pending) {
  const fs::path dir = fs::absolute(settings.run_dir);
  const toolkit_adoption a =
      set_toolkit_run_aside(dir, settings.target.kernel, dimension_flags(settings.target));
  std::vector<std::string> notices = {
      fmt::format("adopted the Python toolkit's run in {}: its files are kept as {}* and its figures listed, "
                  "unverified, in {}; "
                  "kopt judges v0 and the toolkit's best again from their snapshots",
                  dir.string(), toolkit_prefix, toolkit_adoption_name)};
  loop_settings step = settings;
  step.iteration.reset();  // kopt numbers the adopted run's versions itself
  step.run_kernel = a.run_kernel;
  step_outcome last;
  // Each snapshot is measured from a copy beside the toolkit's kernel file, where the headers it
  // includes by a relative path are (the toolkit built the kernel file there).
  const auto judge_snapshot = [&](const std::string& snapshot) {
    step.version_origin = dir / snapshot;
    const work_file copy(work_file_beside(settings.target.kernel, "adopted"),
                         read_text_file(step.version_origin, "the toolkit's snapshot"));
    step.target.kernel = copy.path();
    return step_run(step, services, progress);
  };
  if (pending != adoption_step::judge_best) {
    step.new_run = true;
    last = judge_snapshot(a.find(0)->snapshot);
    notices.insert(notices.end(), last.notices.begin(), last.notices.end());  // the toolkit memory's offer
    record_judged_as(dir, 0, 0);
  }
  step.new_run = false;
  const toolkit_iteration_figures* best = a.toolkit_best ? a.find(*a.toolkit_best) : nullptr;
  if (best != nullptr && best->iteration != 0 && !best->snapshot.empty()) {
    name_next_strategy(dir, read_run_manifest(dir), best->tags);
    last = judge_snapshot(best->snapshot);
    record_judged_as(dir, best->iteration, last.record ? last.record->iteration : 1);
  }
  const run_manifest m = read_run_manifest(dir);
  name_next_strategy(dir, m, a.next_tags);
  const std::string given = sha256_hex(read_text_file(settings.target.kernel, "kernel"));
  const bool judged = std::any_of(m.iterations.begin(), m.iterations.end(),
                                  [&](const iteration_record& r) { return r.written_sha256() == given; });
  step.target.kernel = settings.target.kernel;
  step.version_origin.clear();
  if (!judged) {
    last = step_run(step, services, progress);
  }
  if (last.run_dir.empty()) last = resume_point(step);
  last.notices = std::move(notices);
  return last;
}

}  // namespace

step_outcome run_loop_step(const loop_settings& settings, const loop_services& services,
                           const step_progress& progress) {
  if (settings.preflight_only) return check_machine_only(settings, services);
  if (!settings.run_dir.empty()) {
    if (const adoption_step pending = pending_adoption(settings.run_dir); pending != adoption_step::none) {
      return continue_adoption(settings, services, progress, pending);
    }
  }
  return step_run(settings, services, progress);
}

step_outcome run_candidate_round(const loop_settings& settings,
                                 const std::vector<handed_candidate>& candidates,
                                 const loop_services& services, const step_progress& progress) {
  opened_run run = open_run(settings);
  if (run.fresh) {
    throw error(
        fmt::format("{} has no v0 yet: a round of candidates is built from the best version; start the run "
                    "with the kernel as it is",
                    run.dir.string()));
  }
  if (run.manifest.open_round) {
    throw error(fmt::format(
        "{} has a round of candidates still open (v{}): run kopt loop with --run-dir to finish it "
        "before handing over another",
        run.dir.string(), run.manifest.open_round->iteration));
  }
  memory::memory_store store = memory::memory_store::open(settings.memory_db);
  const record_check checked = checked_run(run, store);
  replay_into_memory(run.manifest, store);
  const step_context ctx{settings, services, progress, run, store};
  start_round(ctx, next_iteration(run.manifest, settings), candidates);
  step_outcome outcome = finish_round(ctx);
  outcome.run_check = checked;
  return outcome;
}

step_outcome resume_point(const loop_settings& settings) {
  opened_run run = open_run(settings);
  memory::memory_store store = memory::memory_store::open(settings.memory_db);
  step_outcome outcome;
  outcome.run_check = checked_run(run, store);
  replay_into_memory(run.manifest, store);
  outcome.run_dir = run.dir;
  outcome.manifest = run.manifest;
  if (run.manifest.iterations.empty()) return outcome;
  next_iteration(run.manifest, settings);  // throws when nothing is left to do
  outcome.record = run.manifest.iterations.back();
  return outcome;
}

}  // namespace kopt::loop
