#include "loop/version_judgement.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "loop/outcome_records.h"
#include "loop/run_directory.h"
#include "loop/shape_checks.h"
#include "loop/version_evaluation.h"
#include "memory/strategy_outcome.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view problem_changed_prefix = "problem changed";

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

// Against the best so far (what the proposal told the agent to build from), on the two
// versions' own samples.
void compare_with_parent(version_record& r, const fs::path& evidence_dir, const fs::path& run_dir) {
  const memory::outcome_evidence verdict =
      compare_bench_results(read_json_file(evidence_dir / "benchmark_result.json"),
                            read_json_file(iteration_dir(run_dir, *r.parent) / "benchmark_result.json"));
  r.comparison = memory::to_json(verdict);
  r.outcome = std::string(memory::to_string(verdict.verdict));
  r.reason =
      fmt::format("{:.4f}x the time of v{} (95 % interval [{:.4f}, {:.4f}], margin ±{:.1f} %)", verdict.ratio,
                  *r.parent, verdict.ratio_ci95.low, verdict.ratio_ci95.high, 100 * verdict.margin);
}

}  // namespace

void judge_version(const step_context& ctx, std::int64_t iteration, const fs::path& evidence_dir,
                   version_record& r, const std::string& what) {
  run_manifest& m = ctx.run.manifest;
  const std::string blocked = blocked_reason(m, ctx.store, scope_of(m, m.arch, ""), r.fingerprint);
  version_evaluation e;
  std::optional<std::string> moved;
  if (blocked.empty()) {
    e = evaluate_version(ctx.settings, ctx.services, m.backend, evidence_dir, ctx.progress);
    if (sha256_hex(read_text_file(ctx.settings.target.kernel, "kernel")) != r.source_sha256) {
      throw error(
          fmt::format("{} changed while kopt measured it: write the next version only after the iteration "
                      "ends; {} is not recorded",
                      ctx.settings.target.kernel.string(), what));
    }
    if (m.arch.empty()) m.arch = e.arch;
    moved = where_problem_moved(m, e);
  } else {
    e.checks = unchecked_shapes(ctx.settings).checks;
  }
  fill_measurements(r, e);
  if (!blocked.empty()) {
    r.outcome = "rejected";
    r.reason = blocked;
  } else if (moved) {
    r.outcome = "rejected";
    r.reason = fmt::format(
        "{}{}: this version declares other buffers, sizes, roles or value ranges than v0 (`kopt "
        "inspect` shows them); the problem is frozen for the run",
        problem_changed_prefix, moved->empty() ? "" : " at " + *moved);
  } else if (!e.failure.empty()) {
    r.outcome = "rejected";
    r.reason = e.failure;
  } else if (!r.parent) {
    r.eligible = true;
    r.outcome = "baseline";
    r.reason =
        iteration == 0 ? "the version the run starts from" : "the first version that passed: the baseline";
  } else {
    r.eligible = true;
    compare_with_parent(r, evidence_dir, ctx.run.dir);
  }
}

bool declared_another_problem(const version_record& r) {
  return r.outcome == "rejected" && r.reason.rfind(problem_changed_prefix, 0) == 0;
}

void block_if_failed(run_manifest& m, const version_record& r) {
  if ((r.outcome == "negative" || r.outcome == "rejected") && !r.fingerprint.empty() &&
      std::find(m.blocked.begin(), m.blocked.end(), r.fingerprint) == m.blocked.end()) {
    m.blocked.push_back(r.fingerprint);
  }
}

}  // namespace kopt::loop
