#include "loop/iteration_redo.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "loop/run_directory.h"
#include "loop/run_ledger.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// "iter_v3/softmax_v3.cu" -> "iter_v3_attempt1/softmax_v3.cu": the same file in the copy.
std::string moved_to(const std::string& snapshot, const fs::path& from, const fs::path& to) {
  if (snapshot.empty()) return snapshot;
  const fs::path relative = fs::path(snapshot).lexically_relative(from);
  return (to / relative).generic_string();
}

iteration_record moved_record(iteration_record r, const fs::path& from, const fs::path& to) {
  r.snapshot = moved_to(r.snapshot, from, to);
  for (candidate_record& c : r.candidates) c.snapshot = moved_to(c.snapshot, from, to);
  return r;
}

bool still_blocked_by_another(const run_manifest& m, const std::string& fingerprint) {
  return std::any_of(m.iterations.begin(), m.iterations.end(), [&](const iteration_record& r) {
    const auto failed = [&](const version_record& v) {
      return v.fingerprint == fingerprint &&
             (v.outcome == version_outcome::negative || v.outcome == version_outcome::rejected);
    };
    return failed(r) || std::any_of(r.candidates.begin(), r.candidates.end(), failed);
  });
}

}  // namespace

std::int64_t next_attempt(const run_manifest& m, std::int64_t k) {
  return 1 + std::count_if(m.superseded.begin(), m.superseded.end(),
                           [&](const iteration_record& r) { return r.iteration == k; });
}

void supersede_last_iteration(const step_context& ctx) {
  run_manifest& m = ctx.run.manifest;
  const iteration_record last = m.iterations.back();
  const fs::path from = iteration_dir("", last.iteration);
  const fs::path to = fmt::format("{}_attempt{}", from.string(), last.attempt);
  const fs::path copy = ctx.run.dir / to;
  std::error_code ec;
  fs::remove_all(copy, ec);  // what a killed redo left
  fs::copy(ctx.run.dir / from, copy, fs::copy_options::recursive, ec);
  if (ec) {
    throw error(fmt::format("cannot keep v{}'s attempt {} in {}: {}; nothing was changed", last.iteration, last.attempt,
                            copy.string(), ec.message()));
  }
  m.iterations.pop_back();
  m.superseded.push_back(moved_record(last, from, to));
  // The best and the blocked strategies as they were before the attempt ran.
  if (m.best == last.iteration) m.best = last.parent;
  std::erase_if(m.blocked, [&](const std::string& fp) {
    const bool blocked_by_last = fp == last.fingerprint ||
                                 std::any_of(last.candidates.begin(), last.candidates.end(),
                                             [&](const candidate_record& c) { return c.fingerprint == fp; });
    return blocked_by_last && !still_blocked_by_another(m, fp);
  });
  commit_run_manifest(ctx.run.dir, m, ctx.store);
  ctx.store.supersede(m.run_id, last.iteration, last.attempt);
}

}  // namespace kopt::loop
