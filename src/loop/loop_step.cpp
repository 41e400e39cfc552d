#include "loop/loop_step.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/text.h"
#include "core/utc_time.h"
#include "env/preflight_writer.h"
#include "loop/next_proposal.h"
#include "loop/outcome_records.h"
#include "loop/run_directory.h"
#include "loop/run_opening.h"
#include "loop/run_summaries.h"
#include "loop/strategy_tags.h"
#include "loop/version_evaluation.h"
#include "memory/memory_store.h"
#include "memory/strategy_fingerprint.h"
#include "memory/strategy_outcome.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

void say(const step_progress& progress, const std::string& what) {
  if (progress) progress(what);
}

std::int64_t next_iteration(const run_manifest& m, const loop_settings& s) {
  const auto next = static_cast<std::int64_t>(m.iterations.size());
  if (s.iteration && *s.iteration != next) {
    throw error(fmt::format("--iteration {} is not the run's next iteration ({}): iterations run in order, each once; "
                            "leave --iteration out",
                            *s.iteration, next));
  }
  if (next > m.max_iterations) {
    throw error(fmt::format("the run has done all its iterations (v0 to v{}): raise --max-iterations to go on, or start "
                            "a new run",
                            m.max_iterations));
  }
  return next;
}

// preflight_check.{md,json} in the run folder; a machine that is not ready stops the run.
void run_preflight_check(const loop_settings& s, const loop_services& services, const run_manifest& m,
                         const fs::path& dir) {
  env::preflight_options options;
  options.backend = kernel::parse_backend_name(m.backend);
  options.gpu = s.target.gpu;
  options.arch = s.target.arch;
  options.nvcc_bin = s.target.nvcc_bin;
  options.ncu_bin = s.ncu_bin;
  const env::preflight_report report = services.preflight(options);
  write_json_file(dir / "preflight_check.json", env::preflight_json(report));
  write_file_atomic(dir / "preflight_check.md", env::preflight_markdown(report));
  const auto problems = report.problems();
  if (problems.empty()) return;
  throw error(fmt::format("not ready: {}: {}; {} (see {})", problems.front()->name, problems.front()->value,
                          problems.front()->fix, (dir / "preflight_check.md").string()));
}

// The tags the agent gave for this version in the previous iteration's proposal.
std::vector<std::string> strategy_tags_for(const fs::path& run_dir, std::int64_t iteration) {
  if (iteration == 0) return {"baseline"};
  const fs::path proposal = iteration_dir(run_dir, iteration - 1) / "optimization_proposal.md";
  if (!fs::exists(proposal)) return {};
  return memory::normalize_tags(parse_strategy_tags(read_text_file(proposal, "optimization proposal")));
}

std::string blocked_reason(const run_manifest& m, const memory::memory_store& store, const memory::memory_scope& scope,
                           const std::string& fingerprint) {
  if (fingerprint.empty()) return "";
  if (std::find(m.blocked.begin(), m.blocked.end(), fingerprint) != m.blocked.end()) {
    return fmt::format("blocked strategy reused: {} was slower or failed earlier in this run", fingerprint);
  }
  const auto blocked = store.blocked(scope);
  if (std::find(blocked.begin(), blocked.end(), fingerprint) != blocked.end()) {
    return fmt::format("blocked strategy reused: {} was slower or failed before on {} at these dimensions (kopt memory "
                       "show {})",
                       fingerprint, scope.op, fingerprint);
  }
  return "";
}

void fill_measurements(iteration_record& r, const version_evaluation& e) {
  r.median_ms = e.median_ms;
  r.median_ci95_ms = e.median_ci95_ms;
  r.reference_median_ms = e.reference_median_ms;
  r.speedup_vs_reference = e.speedup_vs_reference;
  if (e.diagnosis) {
    r.bottleneck = e.diagnosis->bottleneck;
    r.at_hardware_limit = e.diagnosis->at_hardware_limit;
  }
}

// Against the best so far (what the proposal told the agent to build from), on the two
// versions' own samples.
void compare_with_parent(iteration_record& r, const fs::path& run_dir) {
  const memory::outcome_evidence verdict =
      compare_bench_results(read_json_file(iteration_dir(run_dir, r.iteration) / "benchmark_result.json"),
                            read_json_file(iteration_dir(run_dir, *r.parent) / "benchmark_result.json"));
  r.comparison = memory::to_json(verdict);
  r.outcome = std::string(memory::to_string(verdict.verdict));
  r.reason = fmt::format("{:.4f}x the time of v{} (95 % interval [{:.4f}, {:.4f}], margin ±{:.1f} %)", verdict.ratio,
                         *r.parent, verdict.ratio_ci95.low, verdict.ratio_ci95.high, 100 * verdict.margin);
}

std::vector<std::string> reproduce_commands(const run_manifest& m, const fs::path& run_dir) {
  if (!m.best) return {};
  const iteration_record& best = *m.find(*m.best);
  std::string target = (run_dir / best.snapshot).string();
  if (!m.reference.empty()) target += " --ref " + m.reference;
  for (const auto& d : m.frozen.dims) target += " " + d;
  return {fmt::format("kopt bench {}", target), fmt::format("kopt profile {} --out {}", target, iteration_dir(run_dir, best.iteration).string()),
          fmt::format("kopt analyze {}", (iteration_dir(run_dir, best.iteration) / "ncu_raw.csv").string())};
}

}  // namespace

step_outcome run_loop_step(const loop_settings& settings, const loop_services& services, const step_progress& progress) {
  opened_run run = open_run(settings);
  run_manifest& m = run.manifest;
  step_outcome outcome;
  outcome.run_dir = run.dir;
  if (run.fresh || settings.preflight_only) run_preflight_check(settings, services, m, run.dir);
  if (settings.preflight_only) {
    outcome.manifest = m;
    return outcome;
  }
  memory::memory_store store = memory::memory_store::open(settings.memory_db);
  replay_into_memory(m, store);  // outcomes a killed call committed but did not record
  const std::int64_t k = next_iteration(m, settings);
  say(progress, fmt::format("iteration v{} in {}", k, run.dir.string()));

  const fs::path dir = iteration_dir(run.dir, k);
  fs::remove_all(dir);  // what a killed call left of this iteration
  fs::create_directories(dir);
  const std::string source = read_text_file(settings.target.kernel, "kernel");
  iteration_record r;
  r.iteration = k;
  r.snapshot = (fs::path(dir.filename()) / snapshot_name(settings.target.kernel, k)).string();
  r.source_sha256 = sha256_hex(source);
  write_file_atomic(run.dir / r.snapshot, source);
  r.parent = m.best;
  r.tags = strategy_tags_for(run.dir, k);
  if (!r.tags.empty()) r.fingerprint = memory::strategy_fingerprint(m.backend, r.tags);

  const std::string blocked = blocked_reason(m, store, scope_of(m, m.arch, ""), r.fingerprint);
  version_evaluation e;
  if (blocked.empty()) {
    e = evaluate_version(settings, services, m.backend, dir, progress);
    if (sha256_hex(read_text_file(settings.target.kernel, "kernel")) != r.source_sha256) {
      throw error(fmt::format("{} changed while kopt measured it: write the next version only after the iteration "
                              "ends; iteration v{} is not recorded",
                              settings.target.kernel.string(), k));
    }
    if (m.arch.empty()) m.arch = e.arch;
    if (m.frozen.problem_sha256.empty()) m.frozen.problem_sha256 = e.problem_sha256;
  }
  fill_measurements(r, e);
  if (!blocked.empty()) {
    r.outcome = "rejected";
    r.reason = blocked;
  } else if (!e.problem_sha256.empty() && e.problem_sha256 != m.frozen.problem_sha256) {
    r.outcome = "rejected";
    r.reason = "problem changed: this version declares other buffers, sizes, roles or value ranges than v0 (`kopt "
               "inspect` shows them); the problem is frozen for the run";
    outcome.problem_changed = true;
  } else if (!e.failure.empty()) {
    r.outcome = "rejected";
    r.reason = e.failure;
  } else if (!r.parent) {
    r.eligible = true;
    r.outcome = "baseline";
    r.reason = k == 0 ? "the version the run starts from" : "the first version that passed: the baseline";
  } else {
    r.eligible = true;
    compare_with_parent(r, run.dir);
  }
  if (r.eligible && (r.outcome == "baseline" || r.outcome == "positive")) m.best = k;
  if ((r.outcome == "negative" || r.outcome == "rejected") && !r.fingerprint.empty() &&
      std::find(m.blocked.begin(), m.blocked.end(), r.fingerprint) == m.blocked.end()) {
    m.blocked.push_back(r.fingerprint);
  }
  r.finished_at = utc_timestamp();
  m.iterations.push_back(r);
  m.updated_at = r.finished_at;

  write_file_atomic(dir / "iteration_summary.md", iteration_summary_markdown(m, r));
  write_file_atomic(dir / "optimization_proposal.md", next_proposal_markdown(m, run.dir, store));
  write_run_manifest(run.dir, m);  // the commit point: from here the iteration counts
  write_file_atomic(run.dir / "final_summary.md", final_summary_markdown(m, reproduce_commands(m, run.dir)));
  record_in_memory(m, r, store);
  outcome.manifest = m;
  outcome.record = r;
  return outcome;
}

}  // namespace kopt::loop
