#include "loop/candidate_round.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/files.h"
#include "core/hash.h"
#include "core/utc_time.h"
#include "loop/candidate_evaluation.h"
#include "loop/iteration_redo.h"
#include "loop/outcome_records.h"
#include "loop/round_on_gpus.h"
#include "loop/run_directory.h"
#include "loop/run_ledger.h"
#include "loop/run_summaries.h"
#include "loop/strategy_tags.h"
#include "loop/top_two_recomparison.h"
#include "loop/version_judgement.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// Hard links where the file system allows them (a full.ncu-rep is large), else copies; what a
// killed call published before is replaced.
void link_or_copy(const fs::path& from, const fs::path& to) {
  if (fs::is_directory(from)) {
    fs::create_directories(to);
    for (const auto& entry : fs::directory_iterator(from)) {
      link_or_copy(entry.path(), to / entry.path().filename());
    }
    return;
  }
  fs::remove_all(to);
  std::error_code ec;
  fs::create_hard_link(from, to, ec);
  if (ec) fs::copy_file(from, to);
}

// The chosen candidate's evidence under a single version's names in the iteration's folder.
void publish_chosen(const fs::path& run_dir, const candidate_record& c, const fs::path& iteration_folder,
                    const fs::path& snapshot) {
  const fs::path from = run_dir / fs::path(c.snapshot).parent_path();
  for (const auto& entry : fs::directory_iterator(from)) {
    const std::string name = entry.path().filename().string();
    // A tuned candidate's snapshot is its tuned text; the agent's beside it is not published either.
    const bool agents_tuned_away = c.tuned && tuned_snapshot_name(entry.path()) == fs::path(c.snapshot).filename();
    if (name == fs::path(c.snapshot).filename() || name == candidate_proposal_name ||
        name == candidate_summary_name || agents_tuned_away) {
      continue;
    }
    link_or_copy(entry.path(), iteration_folder / name);
  }
  write_file_atomic(run_dir / snapshot, read_text_file(run_dir / c.snapshot, "candidate snapshot"));
}

step_outcome close_round(const step_context& ctx) {
  run_manifest& m = ctx.run.manifest;
  iteration_record r = std::move(*m.open_round);
  m.open_round.reset();
  const std::optional<top_two_choice> recompared = recompare_top_two(ctx, r);
  const int chosen = recompared ? recompared->chosen : chosen_candidate(r.candidates);
  const candidate_record c = *r.find_candidate(chosen);
  const fs::path folder = iteration_dir(ctx.run.dir, r.iteration);
  const fs::path snapshot =
      fs::path(folder.filename()) / snapshot_name(ctx.settings.target.kernel, r.iteration);
  publish_chosen(ctx.run.dir, c, folder, snapshot);

  static_cast<version_record&>(r) = c;
  r.snapshot = snapshot.string();
  r.chosen_candidate = chosen;
  r.reason = fmt::format("cand_{} of {}: {}{}", chosen, r.candidates.size(), c.reason,
                         recompared ? "; " + recompared->said : "");
  if (r.eligible && (r.outcome == version_outcome::baseline || r.outcome == version_outcome::positive))
    m.best = r.iteration;
  for (candidate_record& other : r.candidates) {
    if (other.candidate != chosen && other.outcome == version_outcome::baseline) {
      other.reason = fmt::format(
          "passed the judge with no best to compare with; cand_{} was faster and became the "
          "baseline",
          chosen);
    }
  }
  r.finished_at = utc_timestamp();
  m.updated_at = r.finished_at;
  m.iterations.push_back(r);
  // The kernel file holds the best version after a round (each candidate passed through it).
  const std::string kept = m.best ? m.find(*m.best)->snapshot : r.snapshot;
  write_file_atomic(ctx.settings.target.kernel, read_text_file(ctx.run.dir / kept, "best version"));
  commit_iteration(ctx, r);

  step_outcome outcome;
  outcome.run_dir = ctx.run.dir;
  outcome.manifest = m;
  outcome.record = r;
  outcome.problem_changed = std::any_of(r.candidates.begin(), r.candidates.end(), declared_another_problem);
  return outcome;
}

}  // namespace

int chosen_candidate(const std::vector<candidate_record>& candidates) {
  const candidate_record* pick = nullptr;
  for (const auto& c : candidates) {
    if (c.eligible && c.outcome == version_outcome::positive &&
        (pick == nullptr || ratio_against_best(c) < ratio_against_best(*pick))) {
      pick = &c;
    }
  }
  if (pick != nullptr) return pick->candidate;
  for (const auto& c : candidates) {
    if (c.eligible && c.median_ms && (pick == nullptr || *c.median_ms < *pick->median_ms)) pick = &c;
  }
  return pick != nullptr ? pick->candidate : candidates.front().candidate;
}

void start_round(const step_context& ctx, std::int64_t k, const std::vector<handed_candidate>& candidates) {
  run_manifest& m = ctx.run.manifest;
  const fs::path folder = iteration_dir(ctx.run.dir, k);
  ctx.say(fmt::format("iteration v{}: {} candidate(s) in {}", k, candidates.size(), folder.string()));
  fs::remove_all(folder);  // what a killed call left of this iteration before its round was committed
  iteration_record round;
  round.iteration = k;
  round.attempt = next_attempt(m, k);
  round.parent = m.best;
  for (const handed_candidate& h : candidates) {
    candidate_record c;
    c.candidate = h.candidate;
    c.parent = m.best;
    const fs::path dir = candidate_dir(ctx.run.dir, k, h.candidate);
    fs::create_directories(dir);
    const std::string source = read_text_file(h.kernel, "candidate");
    const std::string proposal = read_text_file(h.proposal, "candidate proposal");
    c.snapshot = (fs::path(folder.filename()) / dir.filename() /
                  candidate_snapshot_name(m.kernel, k, h.candidate))
                     .string();
    c.source_sha256 = sha256_hex(source);
    write_file_atomic(ctx.run.dir / c.snapshot, source);
    write_file_atomic(dir / candidate_proposal_name, proposal);
    c.tags = strategy_of_proposal(proposal);
    if (!c.tags.empty()) c.fingerprint = memory::strategy_fingerprint(m.backend, c.tags);
    round.candidates.push_back(std::move(c));
  }
  m.open_round = std::move(round);
  m.updated_at = utc_timestamp();
  commit_run_manifest(ctx.run.dir, m, ctx.store);  // the handover counts from here
}

step_outcome finish_round(const step_context& ctx) {
  evaluate_open_round(ctx);
  return close_round(ctx);
}

}  // namespace kopt::loop
