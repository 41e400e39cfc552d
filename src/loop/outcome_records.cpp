#include "loop/outcome_records.h"

#include <fmt/format.h>

#include "core/document.h"
#include "core/text.h"

namespace kopt::loop {
namespace {

void record_version(const run_manifest& m, const iteration_record& of, const std::string& candidate,
                    const version_record& r, memory::memory_store& store) {
  if (r.fingerprint.empty() || r.outcome == version_outcome::baseline || r.finished_at.empty()) return;
  // The diagnosis before the change is what the strategy was chosen for.
  const iteration_record* parent = r.parent ? m.find(*r.parent) : nullptr;
  const std::string before = parent ? parent->bottleneck : "";
  memory::recorded_outcome o;
  o.run_id = m.run_id;
  o.iteration = of.iteration;
  o.attempt = of.attempt;
  o.candidate = candidate;
  o.fingerprint = r.fingerprint;
  o.tags = r.tags;
  o.scope = scope_of(m, m.arch, before);
  o.outcome = enum_name(r.outcome);
  o.reason = r.reason;
  o.evidence = {
      {"comparison", r.comparison ? to_document(*r.comparison) : json(nullptr)},
      {"candidate_median_ms", r.median_ms ? json(*r.median_ms) : json(nullptr)},
      {"candidate_median_ci95_ms", r.median_ci95_ms},
      {"parent_iteration", r.parent ? json(*r.parent) : json(nullptr)},
      {"parent_median_ms", parent && parent->median_ms ? json(*parent->median_ms) : json(nullptr)},
      {"parent_median_ci95_ms", parent ? parent->median_ci95_ms : json(nullptr)},
      {"bottleneck_before", before},
      {"bottleneck_after", r.bottleneck},
      {"speedup_vs_reference", r.speedup_vs_reference ? json(*r.speedup_vs_reference) : json(nullptr)},
      // The values kopt tune chose (loop --tune); the fingerprint stays the backend and tags.
      {"tuned_defines", r.tuned ? json(r.tuned->defines) : json(nullptr)},
      // The run's files, for the Python toolkit's scope key on export (toolkit_export.h).
      {"kernel_file", m.kernel},
      {"reference_file", m.reference}};
  o.recorded_at = r.finished_at;
  store.record(std::move(o));
}

}  // namespace

memory::memory_scope scope_of(const run_manifest& m, const std::string& arch, const std::string& bottleneck) {
  return {m.backend, arch, m.op, m.op_family, join(m.frozen.dims, " "), bottleneck};
}

void record_in_memory(const run_manifest& m, const iteration_record& r, memory::memory_store& store) {
  if (r.candidates.empty()) {
    record_version(m, r, "", r, store);
    return;
  }
  for (const candidate_record& c : r.candidates) record_candidate_in_memory(m, r, c, store);
}

void record_candidate_in_memory(const run_manifest& m, const iteration_record& round,
                                const candidate_record& c, memory::memory_store& store) {
  record_version(m, round, fmt::format("cand_{}", c.candidate), c, store);
}

void revise_in_memory(const run_manifest& m, const iteration_record& r, memory::memory_store& store) {
  record_in_memory(m, r, store);  // the memory may have missed it
  // The row of the version as the manifest now records it: the chosen candidate's own record
  // for a round (a round the loop rejected keeps its candidates' reasons).
  for (const candidate_record& c : r.candidates) {
    if (r.chosen_candidate != c.candidate) continue;
    store.revise(m.run_id, r.iteration, r.attempt, fmt::format("cand_{}", c.candidate), enum_name(c.outcome),
                 c.reason);
    return;
  }
  if (r.candidates.empty())
    store.revise(m.run_id, r.iteration, r.attempt, "", enum_name(r.outcome), r.reason);
}

void replay_into_memory(const run_manifest& m, memory::memory_store& store) {
  for (const iteration_record& r : m.superseded) {
    record_in_memory(m, r, store);
    store.supersede(m.run_id, r.iteration, r.attempt);
  }
  for (const iteration_record& r : m.iterations) {
    // A version the final confirmation rejected after the loop recorded it a win: revised (a
    // call killed between the manifest and the memory left the win there).
    if (r.outcome == version_outcome::rejected) {
      revise_in_memory(m, r, store);
    } else {
      record_in_memory(m, r, store);
    }
  }
  if (m.open_round) record_in_memory(m, *m.open_round, store);
}

}  // namespace kopt::loop
