#include "loop/final_confirmation.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"
#include "core/utc_time.h"
#include "core/version.h"
#include "loop/bench_texts.h"
#include "loop/best_write_back.h"
#include "loop/outcome_records.h"
#include "loop/run_directory.h"
#include "loop/run_ledger.h"
#include "loop/run_opening.h"
#include "loop/run_summaries.h"
#include "loop/step_context.h"
#include "loop/turns_comparison.h"
#include "loop/version_evaluation.h"
#include "loop/version_judgement.h"
#include "loop/version_speed_of_light.h"
#include "memory/memory_store.h"
#include "pipeline/child_jobs.h"
#include "pipeline/comparison_pipeline.h"
#include "pipeline/measuring_child.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// A version re-judged from its snapshot: its bench, and the library it measured (kept beside).
struct measured_version {
  pipeline::bench_outcome bench;
  std::string source;   // the snapshot's text, checked against the manifest
  fs::path library;     // "" when none was kept (a Triton kernel)
  std::string failure;  // "" when it passed the judge
};

fs::path attempt_dir(const fs::path& run_dir, std::int64_t iteration) {
  return run_dir / confirmation_dir_name / fmt::format("v{}", iteration);
}

std::string bench_failure(const pipeline::bench_outcome& bench) {
  if (bench.prepared.failed_build)
    return "build failed: " + bench.prepared.failed_build->result.failure_reason;
  if (!bench.result.ok()) return fmt::format("{}: {}", bench.result.status, bench.result.reason);
  return "";
}

// The snapshot written into the kernel file and benched into `out`: timed, or (with a
// sanitizer tool) validation only under that tool.
pipeline::bench_outcome bench_snapshot(const step_context& ctx, const std::string& source,
                                       const std::string& tool, const fs::path& out) {
  write_file_atomic(ctx.settings.target.kernel, source);
  pipeline::bench_request request{
      ctx.settings.target, ctx.settings.job, ctx.settings.atol, ctx.settings.rtol, tool, {}};
  if (!tool.empty()) request.job = pipeline::validation_only(request.job);
  request.reference_timing_folder
      .reset();  // the reference timed now too: kopt's cache is writable by the same user
  if (ctx.progress) {
    request.progress = [&ctx, &tool](const std::string& step) {
      ctx.say(fmt::format("confirm{}: {}", tool.empty() ? "" : " under " + tool, step));
    };
  }
  const pipeline::bench_outcome bench = ctx.services.bench(request);
  fs::create_directories(out);
  write_bench_texts(out, bench);
  if (!bench.document.is_null()) write_json_file(out / "benchmark_result.json", bench.document);
  return bench;
}

measured_version measure_version(const step_context& ctx, const iteration_record& r) {
  measured_version m;
  const fs::path dir = attempt_dir(ctx.run.dir, r.iteration);
  fs::remove_all(dir);
  fs::create_directories(dir);
  m.source = checked_snapshot(ctx.run.dir, r.snapshot, r.source_sha256, m.failure);
  if (!m.failure.empty()) return m;
  ctx.say(fmt::format("confirm: v{} re-judged from its snapshot", r.iteration));
  m.bench = bench_snapshot(ctx, m.source, "", dir);
  m.failure = bench_failure(m.bench);
  const fs::path library = m.bench.prepared.kernel_build.library;
  if (m.failure.empty() && !library.empty() && fs::is_regular_file(library)) {
    m.library = dir / kept_library_name;
    fs::remove(m.library);
    fs::copy_file(library, m.library);
  }
  return m;
}

// "" when every tool found nothing; else what the first finding was.
std::string sanitizer_failure(const step_context& ctx, const iteration_record& r, confirmation_attempt& a) {
  std::string ignored;
  const std::string source = checked_snapshot(ctx.run.dir, r.snapshot, r.source_sha256, ignored);
  for (const std::string& tool : confirmation_sanitizers) {
    ctx.say(fmt::format("confirm: v{} under compute-sanitizer {}", r.iteration, tool));
    const pipeline::bench_outcome bench =
        bench_snapshot(ctx, source, tool, attempt_dir(ctx.run.dir, r.iteration) / tool);
    if (bench.sanitizer) a.sanitizers.push_back(*bench.sanitizer);
    const std::string failure = bench_failure(bench);
    if (!failure.empty()) return fmt::format("under compute-sanitizer {}: {}", tool, failure);
    if (!bench.sanitizer || bench.sanitizer->status != pipeline::sanitizer_status::clean) {
      return fmt::format("compute-sanitizer {} did not pass it", tool);
    }
  }
  return "";
}

// A version re-judged here as a comparison in turns holds it: its library, or a Triton module's
// text as measure_version checked it.
turns_side turns_side_of(const step_context& ctx, const iteration_record& r, const measured_version& m) {
  const bool triton = pipeline::is_triton_backend(ctx.run.manifest.backend);
  return {{ctx.run.dir / r.snapshot, m.library}, triton ? m.source : ""};
}

// Compared with the baseline once more (in turns where the backend allows); "" when faster.
std::string comparison_failure(const step_context& ctx, const iteration_record& r,
                               const measured_version& now, const iteration_record& base_record,
                               const measured_version& base, confirmation_attempt& a) {
  measure::outcome_evidence evidence;
  if (compares_in_turns(ctx, !now.library.empty() && !base.library.empty())) {
    ctx.say(fmt::format("confirm: v{} with v{}, both timed in turns", r.iteration, base_record.iteration));
    const pipeline::turns_outcome turns = compare_versions_in_turns(
        ctx, turns_side_of(ctx, r, now), turns_side_of(ctx, base_record, base),
        std::max(a.median_ms.value_or(0),
                 base.bench.result.kernel ? base.bench.result.kernel->median_ms : 0));
    write_json_file(attempt_dir(ctx.run.dir, r.iteration) / comparison_file_name, pipeline::to_json(turns));
    if (!turns.failure.empty())
      return fmt::format("failed while compared in turns with v{}: {}", base_record.iteration, turns.failure);
    evidence = turns.evidence;
    a.method = fmt::format("in turns, {} rounds of {} calls", turns.rounds, turns.block_calls);
  } else {
    evidence = compare_bench_results(now.bench.result, base.bench.result);
    a.method = "separate runs";
  }
  a.outcome_vs_baseline = std::string(measure::to_string(evidence.verdict));
  a.ratio_vs_baseline = evidence.ratio;
  a.ratio_ci95 = std::array<double, 2>{evidence.ratio_ci95.low, evidence.ratio_ci95.high};
  if (evidence.verdict == measure::outcome::positive) return "";
  return fmt::format(
      "not faster than v{} when compared once more: {} ({:.4f}x its time, 95 % interval [{:.4f}, {:.4f}]; "
      "{})",
      base_record.iteration, a.outcome_vs_baseline, evidence.ratio, evidence.ratio_ci95.low,
      evidence.ratio_ci95.high, a.method);
}

confirmation_attempt confirm_version(const step_context& ctx, const iteration_record& r,
                                     const iteration_record& base_record, const measured_version& base) {
  confirmation_attempt a;
  a.iteration = r.iteration;
  a.snapshot = r.snapshot;
  const measured_version now = measure_version(ctx, r);
  if (!now.failure.empty()) {
    a.reason = "re-judged from its snapshot: " + now.failure;
    return a;
  }
  if (const auto& k = now.bench.result.kernel) {
    a.median_ms = k->median_ms;
    a.median_ci95_ms = k->median_ci95_ms;
  }
  if (now.bench.result.reference) a.reference_median_ms = now.bench.result.reference->median_ms;
  a.speedup_vs_reference = now.bench.result.speedup_vs_reference;
  a.speedup_vs_reference_ci95 = now.bench.result.speedup_vs_reference_ci95;
  a.speed_of_light = version_speed_of_light(ctx.settings, now.bench.result,
                                            iteration_dir(ctx.run.dir, r.iteration) / analysis_file_name);
  a.reason = sanitizer_failure(ctx, r, a);
  if (a.reason.empty()) a.reason = comparison_failure(ctx, r, now, base_record, base, a);
  if (!a.reason.empty()) return a;
  a.confirmed = true;
  a.reason =
      fmt::format("re-judged from its snapshot, clean under {}, {:.4f}x the time of v{} ({})",
                  join(confirmation_sanitizers, ", "), *a.ratio_vs_baseline, base_record.iteration, a.method);
  return a;
}

iteration_record& record_of(run_manifest& m, std::int64_t iteration) {
  const auto it = std::find_if(m.iterations.begin(), m.iterations.end(),
                               [&](const iteration_record& r) { return r.iteration == iteration; });
  return *it;
}

// As the loop records a rejected version: no longer eligible, its strategy blocked.
void reject(run_manifest& m, const confirmation_attempt& a) {
  iteration_record& r = record_of(m, a.iteration);
  r.outcome = version_outcome::rejected;
  r.eligible = false;
  r.reason = "failed the final confirmation: " + a.reason;
  // A round's chosen candidate is the same version: its record says so too.
  for (candidate_record& c : r.candidates) {
    if (r.chosen_candidate != c.candidate) continue;
    c.outcome = r.outcome;
    c.reason = r.reason;
  }
  block_if_failed(m, r);
}

// What the kernel file held before the confirmation wrote versions into it, put back.
class kernel_file_kept {
 public:
  explicit kernel_file_kept(fs::path file)
      : m_file(std::move(file)), m_text(read_text_file(m_file, "kernel")) {}
  ~kernel_file_kept() {
    try {
      write_file_atomic(m_file, m_text);
    } catch (const std::exception&) {  // the error that unwinds says more
    }
  }
  kernel_file_kept(const kernel_file_kept&) = delete;
  kernel_file_kept& operator=(const kernel_file_kept&) = delete;

 private:
  fs::path m_file;
  std::string m_text;
};

void confirm_in_order(const step_context& ctx, final_confirmation& c,
                      const std::vector<std::int64_t>& ranking) {
  run_manifest& m = ctx.run.manifest;
  const iteration_record base_record = record_of(m, c.baseline);
  const kernel_file_kept kept(ctx.settings.target.kernel);
  const measured_version base = measure_version(ctx, base_record);
  if (!base.failure.empty()) {
    throw error(
        fmt::format("the baseline v{} failed when re-judged from its snapshot ({}): nothing can be confirmed "
                    "against it; see {}",
                    c.baseline, base.failure, attempt_dir(ctx.run.dir, c.baseline).string()));
  }
  for (const std::int64_t k : ranking) {
    const confirmation_attempt a = confirm_version(ctx, record_of(m, k), base_record, base);
    c.attempts.push_back(a);
    if (a.confirmed) {
      c.best = k;
      m.best = k;
      return;
    }
    ctx.say(fmt::format("confirm: v{} rejected: {}", k, a.reason));
    reject(m, a);
  }
  m.best = c.baseline;
}

std::string confirmation_markdown(const final_confirmation& c) {
  std::string md = "\n## Final confirmation\n\n";
  if (c.verdict == confirmation_verdict::nothing_to_confirm) {
    return md + fmt::format("No version beat the baseline v{}: nothing to confirm.\n", c.baseline);
  }
  for (const auto& a : c.attempts) {
    md += fmt::format("- v{}: {}: {}\n", a.iteration, a.confirmed ? "confirmed" : "rejected", a.reason);
  }
  if (const confirmation_attempt* a = c.confirmed_attempt()) {
    md += fmt::format("\nConfirmed best: v{} at {:.6g} ms: {} (95 % intervals).\n", a->iteration,
                      a->median_ms.value_or(0), confirmed_speedups(*a, c.baseline));
    if (a->speed_of_light)
      md += fmt::format("It runs {}.\n", measure::speed_of_light_line(*a->speed_of_light));
  } else {
    md += "\nNo version survived the final confirmation: the run has no best.\n";
  }
  return md;
}

}  // namespace

std::vector<std::int64_t> confirmation_ranking(const run_manifest& m) {
  std::vector<std::int64_t> ranking;
  std::optional<std::int64_t> k = m.best;
  while (k && std::find(ranking.begin(), ranking.end(), *k) == ranking.end()) {
    const iteration_record* r = m.find(*k);
    if (r == nullptr || !r->eligible || r->outcome == version_outcome::baseline) break;
    ranking.push_back(*k);
    k = r->parent;
  }
  return ranking;
}

bool ends_the_run(const step_outcome& step) {
  return step.record && !step.problem_changed && !step.manifest.open_round &&
         step.record->iteration >= step.manifest.max_iterations;
}

confirmed_run finish_run(const loop_settings& settings, const loop_services& services,
                         const step_progress& progress) {
  opened_run run = open_run(settings);
  run_manifest& m = run.manifest;
  if (run.fresh)
    throw error(fmt::format("{} has no iteration yet: there is nothing to confirm", run.dir.string()));
  if (m.open_round) {
    throw error(fmt::format(
        "{} has a round of candidates still open (v{}): run kopt loop with --run-dir to finish it "
        "first",
        run.dir.string(), m.open_round->iteration));
  }
  memory::memory_store store = memory::memory_store::open(settings.memory_db);
  const step_context ctx{settings, services, progress, run, store};
  final_confirmation c;
  c.kopt_version = version_string;
  c.confirmed_at = utc_timestamp();
  c.iterations_recorded = static_cast<std::int64_t>(m.iterations.size());
  const std::vector<std::int64_t> ranking = confirmation_ranking(m);
  const auto baseline = std::find_if(m.iterations.begin(), m.iterations.end(), [](const iteration_record& r) {
    return r.eligible && r.outcome == version_outcome::baseline;
  });
  c.baseline = baseline != m.iterations.end() ? baseline->iteration : 0;
  c.verdict = confirmation_verdict::nothing_to_confirm;
  if (!ranking.empty() && baseline != m.iterations.end()) {
    confirm_in_order(ctx, c, ranking);
    c.verdict = c.best ? confirmation_verdict::confirmed : confirmation_verdict::none_survived;
    m.updated_at = c.confirmed_at;
    // The rejections and the best, before the answer that names them; the run's record too.
    commit_run_manifest(run.dir, m, store);
    // Then the memory: a rejected version's strategy no longer counts as a win.
    for (const confirmation_attempt& a : c.attempts) {
      if (!a.confirmed) revise_in_memory(m, record_of(m, a.iteration), store);
    }
  }
  write_file_atomic(run.dir / "final_summary.md",
                    final_summary_markdown(m, reproduce_commands(m, run.dir)) + confirmation_markdown(c));
  write_confirmation(run.dir, c);
  const std::string kernel_file = write_back_best(m, run.dir, c);  // the answer, in the user's file
  return {c, m, kernel_file};
}

}  // namespace kopt::loop
