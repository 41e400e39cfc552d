#include "report/run_report.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyze/analysis_reader.h"
#include "core/document.h"
#include "core/error.h"
#include "loop/run_directory.h"
#include "memory/memory_location.h"

namespace kopt::report {
namespace {

namespace fs = std::filesystem;

// Every iteration whose record names a bottleneck was profiled and analysed: its analysis.json
// must be there and say the same.
std::vector<iteration_diagnosis> read_diagnoses(const fs::path& run_dir, const loop::run_manifest& m) {
  std::vector<iteration_diagnosis> list;
  for (const auto& r : m.iterations) {
    if (r.bottleneck.empty()) continue;
    const fs::path file = loop::iteration_dir(run_dir, r.iteration) / loop::analysis_file_name;
    const std::string shown = (fs::path(file.parent_path().filename()) / file.filename()).string();
    if (!fs::exists(file)) {
      throw error(fmt::format("{} is missing: run_manifest.json records v{} as profiled (bottleneck {}); restore the "
                              "run folder as kopt loop left it, or re-run kopt analyze {}",
                              file.string(), r.iteration, r.bottleneck,
                              (file.parent_path() / "ncu_raw.csv").string()));
    }
    const analyze::analysis a = analyze::analysis_from_json(read_json_file(file), file.string());
    const analyze::kernel_diagnosis* slowest = analyze::slowest_launch(a);
    if (slowest == nullptr) {
      throw error(fmt::format("{} holds no analysed launch though v{} was profiled: re-run kopt analyze on its "
                              "ncu_raw.csv",
                              file.string(), r.iteration));
    }
    const std::string cls(analyze::to_string(slowest->verdict.cls));
    if (cls != r.bottleneck) {
      throw error(fmt::format("{} says {} but run_manifest.json recorded {} for v{}: the analysis was changed after "
                              "the iteration; restore {} or start a new run",
                              shown, cls, r.bottleneck, r.iteration, shown));
    }
    list.push_back({r.iteration, a.kernels.size(), *slowest});
  }
  return list;
}

std::vector<strategy_conclusion> run_strategies(const loop::run_manifest& m) {
  std::vector<strategy_conclusion> list;
  for (const auto& r : m.iterations) {
    if (r.fingerprint.empty()) continue;
    auto it = std::find_if(list.begin(), list.end(), [&](const auto& s) { return s.fingerprint == r.fingerprint; });
    if (it == list.end()) {
      strategy_conclusion s;
      s.fingerprint = r.fingerprint;
      s.tags = r.tags;
      s.blocked = std::find(m.blocked.begin(), m.blocked.end(), r.fingerprint) != m.blocked.end();
      list.push_back(std::move(s));
      it = list.end() - 1;
    }
    it->iterations.push_back(r.iteration);
    it->outcomes.push_back(enum_name(r.outcome));
  }
  return list;
}

// The first ledger among `databases` that knows the run folder decides; none: unverified.
loop::record_check check_record(const fs::path& run_dir, const loop::run_manifest& m,
                                const std::vector<fs::path>& databases) {
  std::vector<std::string> looked_in;
  for (const fs::path& database : databases) {
    std::error_code ec;
    const bool server = memory::is_postgresql_url(database.string());
    if (database.empty() || (!server && !fs::is_regular_file(database, ec))) continue;
    looked_in.push_back(memory::shown_location(database.string()));
    try {
      const loop::record_check check =
          loop::check_run_record(run_dir, m, memory::memory_store::open_read_only(database));
      if (check.status != "unverified") return check;
    } catch (const error&) {
      continue;  // not a memory kopt can read: it holds no ledger for this run
    }
  }
  loop::record_check check;
  check.status = "unverified";
  check.ledger = looked_in.empty() ? "" : looked_in.front();
  check.detail = looked_in.empty()
                     ? "no memory holding a ledger was found (the run was moved from another machine, or its memory is "
                       "gone): what it recorded cannot be checked"
                     : fmt::format("no ledger entry for this run folder in {} (moved from another folder or machine, "
                                   "or recorded in another memory): what it recorded cannot be checked",
                                   fmt::join(looked_in, ", "));
  return check;
}

// Where the run's ledger may be: the memory given, else the manifest's and the user's default.
std::vector<fs::path> ledger_databases(const loop::run_manifest& m, const std::optional<fs::path>& given) {
  if (given) return {*given};
  try {
    const std::string fallback = memory::default_memory_path(std::nullopt).string();
    const std::string recorded = memory::with_credentials(m.memory_db, fallback);
    if (memory::shown_location(fallback) == m.memory_db) return {recorded};
    return {recorded, fallback};
  } catch (const error&) {
    return {m.memory_db};  // no HOME: only the manifest's
  }
}

// Read-only: a report never creates, migrates or writes the memory.
memory_reading read_memory(const loop::run_manifest& m, const std::optional<fs::path>& given,
                           std::vector<strategy_conclusion>& strategies) {
  memory_reading reading;
  const std::string location =
      // $KOPT_MEMORY_DB may name the manifest's server with its password.
      given ? given->string()
            : memory::with_credentials(m.memory_db, memory::named_memory_location(std::nullopt).value_or(""));
  reading.database = memory::shown_location(location);
  if (reading.database.empty()) {
    reading.note = "the manifest names no strategy memory (kopt report --memory-db names one)";
    return reading;
  }
  try {
    const memory::memory_store store = memory::memory_store::open_read_only(location);
    for (const auto& summary : store.summarize({m.backend, "", ""})) {
      for (auto& s : strategies) {
        if (s.fingerprint == summary.fingerprint) s.history = summary;
      }
    }
    reading.read = true;
  } catch (const error& e) {
    reading.note = e.headline();
  }
  return reading;
}

}  // namespace

const loop::confirmation_attempt* run_report::confirmed_best() const {
  return confirmation && confirmation_current ? confirmation->confirmed_attempt() : nullptr;
}

std::string run_report::confirmation_state() const {
  if (!confirmation || !confirmation_current) return "not confirmed yet";
  switch (confirmation->verdict) {
    case loop::confirmation_verdict::confirmed: return "confirmed";
    case loop::confirmation_verdict::none_survived: return "none survived";
    case loop::confirmation_verdict::nothing_to_confirm: return "nothing to confirm";
  }
  return "not confirmed yet";
}

const iteration_diagnosis* run_report::diagnosis_of(std::int64_t iteration) const {
  for (const auto& d : diagnoses) {
    if (d.iteration == iteration) return &d;
  }
  return nullptr;
}

const iteration_diagnosis* run_report::best_diagnosis() const {
  return manifest.best ? diagnosis_of(*manifest.best) : nullptr;
}

run_report gather_run_report(const fs::path& run_dir, const std::optional<fs::path>& memory_db) {
  if (!fs::is_directory(run_dir)) {
    throw error(fmt::format("{} is not a folder: give a run folder of kopt loop (optimize_runs/run_...)",
                            run_dir.string()));
  }
  if (!fs::exists(run_dir / loop::run_manifest_name)) {
    throw error(fmt::format("{} is not a kopt loop run: it has no {}; give a folder such as optimize_runs/run_... that "
                            "kopt loop wrote",
                            run_dir.string(), loop::run_manifest_name));
  }
  run_report report;
  report.run_dir = fs::absolute(run_dir).lexically_normal();
  if (report.run_dir.filename().empty()) report.run_dir = report.run_dir.parent_path();  // "run_x/"
  report.manifest = loop::read_run_manifest(run_dir);
  report.record = check_record(run_dir, report.manifest, ledger_databases(report.manifest, memory_db));
  if (report.record.status == "tampered") report.manifest.best.reset();
  report.diagnoses = read_diagnoses(run_dir, report.manifest);
  report.strategies = run_strategies(report.manifest);
  report.changes = read_source_changes(run_dir, report.manifest);
  report.memory = read_memory(report.manifest, memory_db, report.strategies);
  report.adoption = loop::read_toolkit_adoption(run_dir);
  report.confirmation = loop::read_confirmation(run_dir);
  report.confirmation_current = report.confirmation && loop::confirmation_is_current(*report.confirmation, report.manifest);
  return report;
}

}  // namespace kopt::report
