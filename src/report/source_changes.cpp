#include "report/source_changes.h"

#include <fmt/format.h>

#include "core/subprocess.h"

namespace kopt::report {
namespace {

namespace fs = std::filesystem;

source_change change_of(const fs::path& run_dir, const loop::run_manifest& m, const loop::iteration_record& r) {
  source_change c;
  c.iteration = r.iteration;
  c.parent = r.parent;
  if (!r.parent) {
    c.note = "the baseline: nothing to compare it with";
    return c;
  }
  const loop::iteration_record* parent = m.find(*r.parent);
  if (parent == nullptr || parent->snapshot.empty() || r.snapshot.empty()) {
    c.note = "no snapshot to compare";
    return c;
  }
  const fs::path before = run_dir / parent->snapshot;
  const fs::path after = run_dir / r.snapshot;
  std::error_code ec;
  if (!fs::is_regular_file(before, ec) || !fs::is_regular_file(after, ec)) {
    c.note = fmt::format("{} or {} is missing from the run folder", parent->snapshot, r.snapshot);
    return c;
  }
  const process_result run = run_process({.argv = {"diff", "-u", "--label", fmt::format("v{}/{}", *r.parent, before.filename().string()),
                                                   "--label", fmt::format("v{}/{}", r.iteration, after.filename().string()),
                                                   before.string(), after.string()},
                                          .timeout = std::chrono::seconds(30)});
  // diff: 0 the same, 1 different, anything else trouble.
  const bool ended = run.started && !run.timed_out && !run.cancelled && run.term_signal == 0;
  if (!ended || (run.exit_code != 0 && run.exit_code != 1)) {
    c.note = fmt::format("diff -u could not compare them ({})", run.describe_end());
    return c;
  }
  if (run.exit_code == 0) {
    c.note = fmt::format("the same source as v{}", *r.parent);
    return c;
  }
  c.diff = run.stdout_text;
  if (c.diff.size() > most_diff_bytes) {
    c.diff.resize(most_diff_bytes);
    c.note = fmt::format("cut at {} KiB; diff the snapshots for the rest", most_diff_bytes / 1024);
  }
  return c;
}

}  // namespace

std::vector<source_change> read_source_changes(const fs::path& run_dir, const loop::run_manifest& m) {
  std::vector<source_change> list;
  for (const loop::iteration_record& r : m.iterations) list.push_back(change_of(run_dir, m, r));
  return list;
}

}  // namespace kopt::report
