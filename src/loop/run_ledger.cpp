#include "loop/run_ledger.h"

#include <array>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/json_io.h"
#include "core/json_limits.h"
#include "loop/run_directory.h"
#include "memory/ledger_store.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

void add_file(run_record& record, const fs::path& run_dir, const fs::path& relative) {
  std::error_code ec;
  if (!fs::is_regular_file(run_dir / relative, ec)) return;
  record[relative.generic_string()] = sha256_hex(read_text_file(run_dir / relative, "file of the run's record"));
}

// A version's files: its snapshot; once evaluated, what later steps and the report read again.
// (A candidate not evaluated yet has only its snapshot and proposal: what a killed call left
// beside them is removed before it is measured.)
void add_version(run_record& record, const fs::path& run_dir, const version_record& v) {
  if (v.snapshot.empty()) return;
  const fs::path folder = fs::path(v.snapshot).parent_path();
  add_file(record, run_dir, v.snapshot);
  if (v.finished_at.empty()) return;
  for (const char* name : {kept_library_name, "benchmark_result.json", comparison_file_name, analysis_file_name}) {
    add_file(record, run_dir, folder / name);
  }
}

void add_candidates(run_record& record, const fs::path& run_dir, const iteration_record& r) {
  for (const candidate_record& c : r.candidates) {
    add_version(record, run_dir, c);
    if (!c.snapshot.empty()) add_file(record, run_dir, fs::path(c.snapshot).parent_path() / candidate_proposal_name);
  }
}

memory::ledger_run identity_of(const fs::path& run_dir, const run_manifest& m) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(fs::absolute(run_dir), ec);
  if (ec) dir = fs::absolute(run_dir).lexically_normal();
  return {dir.string(), m.run_id, m.created_at};
}

record_check tampered(record_check check, std::string file, std::string detail) {
  check.status = "tampered";
  check.file = std::move(file);
  check.detail = std::move(detail);
  return check;
}

std::optional<run_record> parsed(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  try {
    return parse_json_checked(*text).get<run_record>();
  } catch (const std::exception&) {
    return std::nullopt;  // sealed but not a record: only a forger holding the key writes that
  }
}

// `now` held against the ledger's `kept` (their manifests already agree): the first file
// removed, changed or added.
record_check compare_files(record_check check, const run_record& kept, const run_record& now) {
  for (const auto& [file, digest] : kept) {
    const auto found = now.find(file);
    if (found == now.end()) return tampered(check, file, "was removed after kopt recorded it");
    if (found->second != digest) return tampered(check, file, "differs from what kopt recorded");
  }
  for (const auto& [file, digest] : now) {
    if (kept.count(file) == 0) return tampered(check, file, "was added after kopt recorded the run");
  }
  check.status = "verified";
  return check;
}

}  // namespace

run_record record_of(const fs::path& run_dir, const run_manifest& m, std::string_view manifest_text) {
  run_record record;
  record[run_manifest_name] = sha256_hex(manifest_text);
  for (const iteration_record& r : m.iterations) {
    add_version(record, run_dir, r);
    add_candidates(record, run_dir, r);
    if (r.iteration != m.iterations.back().iteration) {
      add_file(record, run_dir, fs::path(iteration_dir("", r.iteration)) / "optimization_proposal.md");
    }
  }
  if (m.open_round) add_candidates(record, run_dir, *m.open_round);
  for (const iteration_record& r : m.superseded) {
    add_version(record, run_dir, r);
    add_candidates(record, run_dir, r);
  }
  return record;
}

record_check check_run_record(const fs::path& run_dir, const run_manifest& m, const memory::memory_store& store) {
  record_check check;
  check.ledger = store.shown_name();
  const memory::ledger_entry entry = memory::ledger_store(store).find(identity_of(run_dir, m));
  if (entry.state == memory::ledger_entry::found::none) {
    check.status = "unverified";
    check.detail = fmt::format("the ledger in {} has no entry for this run folder (moved from another folder or "
                               "machine, or recorded in another memory): what it recorded before cannot be checked",
                               check.ledger);
    return check;
  }
  if (entry.state == memory::ledger_entry::found::other_run) {
    return tampered(check, run_manifest_name, "names another run than the one kopt recorded in this folder");
  }
  if (entry.seal_broken) {
    return tampered(check, check.ledger, "holds an entry for this run that kopt did not write (its seal does not hold)");
  }
  const run_record now = record_of(run_dir, m, read_text_file(run_dir / run_manifest_name, "run manifest"));
  const std::array<std::optional<run_record>, 2> kept = {parsed(entry.record), parsed(entry.staged)};
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (!kept[i] || kept[i]->count(run_manifest_name) == 0) continue;
    if (kept[i]->at(run_manifest_name) != now.at(run_manifest_name)) continue;
    check.staged = i == 1;
    return compare_files(check, *kept[i], now);
  }
  return tampered(check, run_manifest_name, "differs from what kopt recorded");
}

void commit_run_manifest(const fs::path& run_dir, const run_manifest& m, const memory::memory_store& store) {
  const std::string text = run_manifest_text(m);
  const memory::ledger_run run = identity_of(run_dir, m);
  const memory::ledger_store ledger(store);
  ledger.stage(run, json_text(json(record_of(run_dir, m, text)), -1));
  write_file_atomic(run_dir / run_manifest_name, text);
  ledger.commit(run);
}

record_check verify_before_iteration(const fs::path& run_dir, const run_manifest& m,
                                     const memory::memory_store& store) {
  const record_check check = check_run_record(run_dir, m, store);
  if (check.status == "tampered") {
    throw error(fmt::format("the run folder was changed outside kopt: {} {} (ledger in {}); kopt alone writes what a "
                            "run relies on: restore it as kopt left it, or start a new run",
                            check.file, check.detail, check.ledger));
  }
  if (check.staged) memory::ledger_store(store).commit(identity_of(run_dir, m));
  return check;
}

json to_json(const record_check& check) {
  return {{"status", check.status}, {"file", check.file}, {"detail", check.detail}, {"ledger", check.ledger}};
}

}  // namespace kopt::loop
