#include "loop/version_judgement.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/phase_clock.h"
#include "loop/outcome_records.h"
#include "loop/run_directory.h"
#include "loop/shape_checks.h"
#include "loop/strategy_tags.h"
#include "loop/turns_comparison.h"
#include "loop/version_evaluation.h"
#include "loop/version_tuning.h"
#include "measure/outcome.h"
#include "pipeline/measuring_child.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

std::string blocked_reason(const run_manifest& m, const memory::memory_store& store,
                           const memory::memory_scope& scope, const std::string& fingerprint) {
  if (fingerprint.empty()) return "";
  if (std::find(m.blocked.begin(), m.blocked.end(), fingerprint) != m.blocked.end()) {
    return fmt::format("blocked strategy reused: {} was slower or failed earlier in this run", fingerprint);
  }
  const auto blocked = store.blocked(scope);
  if (std::find(blocked.begin(), blocked.end(), fingerprint) != blocked.end()) {
    return fmt::format(
        "blocked strategy reused: {} was slower or failed before on {} at these dimensions (kopt memory "
        "show {})",
        fingerprint, scope.op, fingerprint);
  }
  return "";
}

void fill_measurements(version_record& r, const version_evaluation& e) {
  r.median_ms = e.median_ms;
  r.median_ci95_ms = e.median_ci95_ms;
  r.reference_median_ms = e.reference_median_ms;
  r.speedup_vs_reference = e.speedup_vs_reference;
  if (e.diagnosis) {
    r.bottleneck = e.diagnosis->bottleneck;
    r.at_hardware_limit = e.diagnosis->at_hardware_limit;
  }
  r.checks = e.checks;
  r.library_sha256 = e.library_sha256;
  r.step_seconds = e.step_seconds;
}

// Freezes what v0 (the first version planned) declared and says where a later one differs:
// nothing when nowhere, "" at the benchmarked shape, else the extra shape's flags.
std::optional<std::string> where_problem_moved(run_manifest& m, const version_evaluation& e) {
  if (m.frozen.problem_sha256.empty()) m.frozen.problem_sha256 = e.problem_sha256;
  if (!e.problem_sha256.empty() && e.problem_sha256 != m.frozen.problem_sha256) return std::string();
  m.frozen.check_problem_sha256.resize(m.frozen.check_dims.size());
  for (std::size_t i = 0; i < e.check_problem_sha256.size() && i < m.frozen.check_dims.size(); ++i) {
    const std::string& now = e.check_problem_sha256[i];
    std::string& frozen = m.frozen.check_problem_sha256[i];
    if (frozen.empty()) frozen = now;
    if (!now.empty() && now != frozen) return m.frozen.check_dims[i];
  }
  return std::nullopt;
}

version_outcome as_version_outcome(measure::outcome verdict) {
  switch (verdict) {
    case measure::outcome::positive:
      return version_outcome::positive;
    case measure::outcome::negative:
      return version_outcome::negative;
    case measure::outcome::neutral:
      return version_outcome::neutral;
    case measure::outcome::inconclusive:
      return version_outcome::inconclusive;
    case measure::outcome::rejected:
      return version_outcome::rejected;
  }
  return version_outcome::inconclusive;
}

void take_outcome(version_record& r, const measure::outcome_evidence& verdict, const std::string& how) {
  r.outcome = as_version_outcome(verdict.verdict);
  r.reason = fmt::format("{:.4f}x the time of v{} (95 % interval [{:.4f}, {:.4f}], margin ±{:.1f} %; {})",
                         verdict.ratio, *r.parent, verdict.ratio_ci95.low, verdict.ratio_ci95.high,
                         100 * verdict.margin, how);
}

// The parent's kept library, checked against the manifest: a library swapped behind kopt's
// back (a slowed incumbent makes any candidate look faster) fails the run.
fs::path checked_library(const fs::path& folder, const std::string& sha256, const std::string& what) {
  const fs::path library = folder / kept_library_name;
  if (!fs::is_regular_file(library) || sha256_hex(read_text_file(library, "kept kernel library")) != sha256) {
    throw error(
        fmt::format("{} of {} is missing or changed since kopt measured it: the run's files are kopt's; "
                    "start a new run",
                    library.string(), what));
  }
  return library;
}

// Against the best so far (what the proposal told the agent to build from): both held open in
// their own measuring processes and timed in turns where the backend allows, else from the two
// versions' own bench samples.
void compare_with_parent(const step_context& ctx, version_record& r, const fs::path& evidence_dir) {
  const run_manifest& m = ctx.run.manifest;
  const iteration_record* parent = m.find(*r.parent);
  const fs::path parent_dir = iteration_dir(ctx.run.dir, *r.parent);
  const bool in_turns = parent != nullptr &&
                        compares_in_turns(ctx, !r.library_sha256.empty() && !parent->library_sha256.empty());
  if (!in_turns) {
    const measure::outcome_evidence verdict =
        compare_bench_results(pipeline::read_bench_result_file(evidence_dir / "benchmark_result.json"),
                              pipeline::read_bench_result_file(parent_dir / "benchmark_result.json"));
    version_comparison separate;
    static_cast<measure::outcome_record&>(separate) = measure::record_of(verdict);
    separate.method = "separate runs: each version's samples from its own bench";
    r.comparison = std::move(separate);
    take_outcome(r, verdict, "separate runs");
    return;
  }
  ctx.say(fmt::format("compare: with v{}, both timed in turns", *r.parent));
  const pipeline::turns_outcome turns =
      compare_versions_in_turns(ctx, held_open(ctx, r, evidence_dir, "this version"),
                                held_open(ctx, *parent, parent_dir, fmt::format("v{}", *r.parent)),
                                std::max(r.median_ms.value_or(0), parent->median_ms.value_or(0)));
  write_json_file(evidence_dir / comparison_file_name, pipeline::to_json(turns));
  r.comparison =
      version_comparison{pipeline::summary_of(turns), comparison_file_name, ctx.settings.target.gpu};
  if (turns.failed_version == 0) {
    r.outcome = version_outcome::rejected;
    r.reason = "failed while compared in turns: " + turns.failure;
  } else if (!turns.failure.empty()) {
    r.outcome = version_outcome::inconclusive;
    r.reason =
        fmt::format("no comparison: v{} failed while compared in turns ({})", *r.parent, turns.failure);
  } else {
    take_outcome(r, turns.evidence,
                 fmt::format("in turns, {} rounds of {} calls", turns.rounds, turns.block_calls));
  }
}

// Compared with its parent before any profile: a version that is not faster keeps its bench and
// its comparison as evidence, and costs no ncu pass. The baseline and a new best are profiled in
// full, since the next proposal is built from the best's diagnosis. Returns the comparison's
// time ({} when there was no parent).
json compare_then_profile(const step_context& ctx, const fs::path& evidence_dir, version_record& r,
                          version_evaluation& e) {
  fill_measurements(r, e);
  json compare_seconds = json::object();
  if (r.parent) {
    phase_clock clock;
    compare_with_parent(ctx, r, evidence_dir);
    clock.done("compare");
    compare_seconds = to_document(clock.phases());
  }
  if (!r.parent || r.outcome == version_outcome::positive) {
    profile_version(ctx.settings, ctx.services, ctx.run.manifest.backend, evidence_dir, ctx.progress, e);
  } else {
    ctx.say(fmt::format("profile: skipped, not faster than v{} (its bench and comparison are its evidence)",
                        *r.parent));
  }
  return compare_seconds;
}

}  // namespace

turns_side held_open(const step_context& ctx, const version_record& r, const fs::path& folder,
                     const std::string& what) {
  const fs::path snapshot = ctx.run.dir / r.snapshot;
  if (!pipeline::is_triton_backend(ctx.run.manifest.backend)) {
    return {{snapshot, checked_library(folder, r.library_sha256, what)}, ""};
  }
  std::string failure;
  std::string text = checked_snapshot(ctx.run.dir, r.snapshot, r.source_sha256, failure);
  if (!failure.empty())
    throw error(fmt::format("{}: {}; the run's files are kopt's: start a new run", what, failure));
  return {{snapshot, {}}, std::move(text)};
}

std::string blocked_strategy(const step_context& ctx, const version_record& r) {
  const run_manifest& m = ctx.run.manifest;
  // A version whose proposal listed no tag names no strategy: there is nothing to block.
  return names_no_strategy(r.tags) ? ""
                                   : blocked_reason(m, ctx.store, scope_of(m, m.arch, ""), r.fingerprint);
}

void judge_version(const step_context& ctx, std::int64_t iteration, const fs::path& evidence_dir,
                   version_record& r, const std::string& what, const std::string& blocked) {
  run_manifest& m = ctx.run.manifest;
  version_evaluation e;
  std::optional<std::string> moved;
  json compare_seconds = json::object();  // {"compare": s} once compared
  if (blocked.empty()) {
    e = measure_version(ctx.settings, ctx.services, evidence_dir, ctx.progress);
    // The file measured still holds what kopt measured: the agent's file as written, or the copy
    // of the snapshot (tuned_measurement).
    if (sha256_hex(read_text_file(ctx.settings.target.kernel, "kernel")) !=
        (measured_from_its_snapshot(r.tuned, m.backend) ? r.source_sha256 : r.written_sha256())) {
      throw error(
          fmt::format("{} changed while kopt measured it: write the next version only after the iteration "
                      "ends; {} is not recorded",
                      ctx.settings.target.kernel.string(), what));
    }
    if (m.arch.empty()) m.arch = e.arch;
    moved = where_problem_moved(m, e);
    if (e.failure.empty() && !moved) compare_seconds = compare_then_profile(ctx, evidence_dir, r, e);
  } else {
    e.checks = unchecked_shapes(ctx.settings).checks;
  }
  fill_measurements(r, e);
  if (!compare_seconds.empty() && !e.failure.empty()) {
    // Faster, then its profile failed: rejected after all, and the comparison is no part of its record.
    r.comparison.reset();
    std::error_code ec;
    fs::remove(evidence_dir / comparison_file_name, ec);
  }
  if (!blocked.empty()) {
    r.outcome = version_outcome::rejected;
    r.reason = blocked;
  } else if (moved) {
    r.outcome = version_outcome::rejected;
    r.problem_changed = true;
    r.reason = fmt::format(
        "problem changed{}: this version declares other buffers, sizes, roles or value ranges than v0 (`kopt "
        "inspect` shows them); the problem is frozen for the run",
        moved->empty() ? "" : " at " + *moved);
  } else if (!e.failure.empty()) {
    r.outcome = version_outcome::rejected;
    r.reason = e.failure;
  } else if (!r.parent) {
    r.eligible = true;
    r.outcome = version_outcome::baseline;
    r.reason =
        iteration == 0 ? "the version the run starts from" : "the first version that passed: the baseline";
  } else {
    r.eligible = r.outcome != version_outcome::rejected;
  }
  r.step_seconds.update(compare_seconds);
}

bool declared_another_problem(const version_record& r) {
  return r.outcome == version_outcome::rejected && r.problem_changed;
}

void block_if_failed(run_manifest& m, const version_record& r) {
  if ((r.outcome == version_outcome::negative || r.outcome == version_outcome::rejected) &&
      !r.fingerprint.empty() && !names_no_strategy(r.tags) &&
      std::find(m.blocked.begin(), m.blocked.end(), r.fingerprint) == m.blocked.end()) {
    m.blocked.push_back(r.fingerprint);
  }
}

}  // namespace kopt::loop
