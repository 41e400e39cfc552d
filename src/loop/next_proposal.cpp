#include "loop/next_proposal.h"

#include <set>

#include <fmt/format.h>

#include "core/json_io.h"
#include "core/text.h"
#include "loop/diagnosis_digest.h"
#include "loop/outcome_records.h"
#include "loop/proposal.h"
#include "loop/run_directory.h"
#include "loop/strategy_tags.h"
#include "loop/suggestion_ranking.h"
#include "memory/strategy_fingerprint.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// No version to build from yet: the agent must first make one pass.
std::string repair_proposal(const run_manifest& m) {
  const iteration_record& last = m.iterations.back();
  return fmt::format(
      "# Optimization proposal for v{0}\n\nNo version has passed the judge with a full profile yet. "
      "v{1} was rejected: {2}\n\nWrite v{0} so that it passes; the first version that does becomes the "
      "baseline.\n\n{4}## Plan\n\n<!-- what you fix -->\n\n{3}\n\n<!-- one tag per line, e.g. \"- "
      "fix_out_of_bounds_write\" -->\n",
      last.iteration + 1, last.iteration, last.reason, strategy_tags_heading,
      shapes_section(last.iteration + 1, join(m.frozen.dims, " "), m.frozen.check_dims));
}

std::vector<std::string> tags_of(const run_manifest& m, const memory::memory_store& store,
                                 const std::string& fp) {
  if (const std::vector<std::string>* tags = m.tags_of(fp)) return *tags;
  const auto history = store.history(fp);
  return history.empty() ? std::vector<std::string>{} : history.front().tags;
}

}  // namespace

std::string next_proposal_markdown(const run_manifest& m, const fs::path& run_dir,
                                   const memory::memory_store& store) {
  if (!m.best) return repair_proposal(m);
  const iteration_record& best = *m.find(*m.best);
  const fs::path analysis_file = iteration_dir(run_dir, best.iteration) / analysis_file_name;
  proposal_inputs in;
  in.next_iteration = m.iterations.back().iteration + 1;
  in.best_snapshot = best.snapshot;
  in.best_iteration = best.iteration;
  in.best_median_ms = best.median_ms.value_or(0);
  if (best.tuned) in.best_tuned = tuned_text(*best.tuned);
  if (best.speedup_vs_reference)
    in.best_speedup = fmt::format("{:.3f}x the reference", *best.speedup_vs_reference);
  in.diagnosis = digest_analysis_file(analysis_file);
  in.benchmarked_dims = join(m.frozen.dims, " ");
  in.check_dims = m.frozen.check_dims;

  const memory::memory_scope scope = scope_of(m, m.arch, in.diagnosis.bottleneck);
  std::set<std::string> blocked(m.blocked.begin(), m.blocked.end());
  for (const auto& fp : store.blocked(scope)) blocked.insert(fp);
  // A version without tags named no strategy: nothing of it is blocked, nor offered again.
  const std::string unlabeled =
      memory::strategy_fingerprint(m.backend, {std::string(unlabeled_strategy_tag)});
  blocked.erase(unlabeled);
  const auto history = store.summarize({m.backend, in.diagnosis.bottleneck, m.arch});
  const std::string scope_label =
      fmt::format("{}-bound {} kernels ({})", in.diagnosis.bottleneck, m.backend, m.arch);
  // The toolkit's imported outcomes keep no bottleneck or arch: weaker evidence beside these.
  std::vector<memory::strategy_summary> evidence = history;
  for (auto& unplaced : store.summarize_unplaced({m.backend, in.diagnosis.bottleneck, m.arch})) {
    evidence.push_back(std::move(unplaced));
  }
  in.suggestions = rank_suggestions(in.diagnosis.suggestions, evidence, blocked, m.backend, scope_label);

  for (const auto& fp : blocked) {
    const bool in_run = std::find(m.blocked.begin(), m.blocked.end(), fp) != m.blocked.end();
    in.blocked.push_back(
        {fp, tags_of(m, store, fp),
         in_run ? "slower or failed in this run" : "slower or failed before on this operator"});
  }
  std::set<std::string> preferred;
  for (const auto& fp : store.preferred(scope)) preferred.insert(fp);
  for (const auto& h : history) {
    if (h.positive > h.negative + h.rejected && !blocked.count(h.fingerprint))
      preferred.insert(h.fingerprint);
  }
  for (const auto& fp : preferred) {
    if (blocked.count(fp) || fp == unlabeled) continue;
    in.preferred.push_back({fp, tags_of(m, store, fp), fmt::format("worked before on {}", scope_label)});
  }
  return proposal_markdown(in);
}

}  // namespace kopt::loop
