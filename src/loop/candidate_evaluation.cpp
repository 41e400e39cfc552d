#include "loop/candidate_evaluation.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/text.h"
#include "core/utc_time.h"
#include "loop/outcome_records.h"
#include "loop/run_directory.h"
#include "loop/run_ledger.h"
#include "loop/run_summaries.h"
#include "loop/version_judgement.h"
#include "loop/version_tuning.h"
#include "loop/work_file.h"

namespace kopt::loop {

namespace fs = std::filesystem;

fs::path candidate_work_file(const fs::path& kernel, int candidate) {
  return work_file_beside(kernel, fmt::format("cand{}", candidate));
}

void evaluate_candidate(const step_context& ctx, std::int64_t k, candidate_record& c,
                        const std::string& blocked) {
  const fs::path snapshot = ctx.run.dir / c.snapshot;
  const std::string source = read_text_file(snapshot, "candidate snapshot");
  if (sha256_hex(source) != c.source_sha256) {
    throw error(
        fmt::format("{} changed after kopt took it from the agent (its SHA-256 differs from the manifest's): "
                    "the run's files are kopt's; restore it, or start a new run",
                    snapshot.string()));
  }
  // What a killed call left of this candidate's evidence.
  for (const auto& entry : fs::directory_iterator(snapshot.parent_path())) {
    const std::string name = entry.path().filename().string();
    if (name != snapshot.filename() && name != candidate_proposal_name) fs::remove_all(entry.path());
  }
  ctx.say(fmt::format("iteration v{}, candidate {}: {}", k, c.candidate,
                      c.tags.empty() ? "(no tags)" : join(c.tags, ", ")));
  const work_file measured(ctx.settings.target.kernel, source);
  // A strategy is judged at its best configuration: the candidate is tuned first (--tune). From
  // then on the candidate is its tuned text, as a single version's snapshot is; the agent's stays
  // beside it. Only the commit below records the switch: a call killed before it finds the
  // agent's snapshot named, and evaluates it again.
  const version_tuning tuning = blocked.empty() ? tune_version(ctx, snapshot.parent_path(), source) : version_tuning{};
  if (tuning.tuned) {
    const fs::path tuned = fs::path(c.snapshot).parent_path() / tuned_snapshot_name(c.snapshot);
    write_file_atomic(ctx.run.dir / tuned, tuning.tuned_source);
    c.snapshot = tuned.string();
    c.source_sha256 = sha256_hex(tuning.tuned_source);
    c.tuned = tuning.tuned;
  }
  const tuned_measurement measured_as(ctx.settings, c.tuned, tuning.tuned ? tuning.tuned_source : source,
                                      ctx.run.manifest.backend);
  const step_context version_ctx{measured_as.settings(), ctx.services, ctx.progress, ctx.run, ctx.store};
  judge_version(version_ctx, k, snapshot.parent_path(), c,
                fmt::format("candidate {} of iteration v{}", c.candidate, k),
                blocked.empty() ? tuning.failure : blocked);
}

void commit_candidate(const step_context& ctx, std::int64_t k, candidate_record& c) {
  run_manifest& m = ctx.run.manifest;
  block_if_failed(m, c);
  c.finished_at = utc_timestamp();
  m.updated_at = c.finished_at;
  write_file_atomic(ctx.run.dir / fs::path(c.snapshot).parent_path() / candidate_summary_name,
                    candidate_summary_markdown(m, k, c));
  commit_run_manifest(ctx.run.dir, m, ctx.store);  // the commit point of this candidate
  record_candidate_in_memory(m, *m.open_round, c, ctx.store);
}

}  // namespace kopt::loop
