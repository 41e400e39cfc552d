// kopt report RUN_DIR [--html FILE | --out DIR] [--json]: a loop run folder rendered for people
// (report.html: the iteration table, the median and roofline charts, the best version's
// diagnosis, the memory's conclusions) and for programs (--json, schema kopt.report/v1), with a
// short summary on the terminal; a tune folder as cli/tune_report.h renders it.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/terminal.h"
#include "cli/tune_report.h"
#include "core/document.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"
#include "measure/interval_text.h"
#include "memory/memory_location.h"
#include "report/html_page.h"
#include "report/report_json.h"
#include "report/run_report.h"
#include "report/toolkit_adoption_rows.h"
#include "report/tune_page.h"

namespace kopt::cli {
namespace {

namespace fs = std::filesystem;

std::string number(const std::optional<double>& v, const char* unit = "") {
  return v ? fmt::format("{:.4g}{}", *v, unit) : std::string("n/a");
}

void print_iterations(const printer& out, const loop::run_manifest& m) {
  for (const auto& r : m.iterations) {
    const std::string median =
        r.median_ms ? number(r.median_ms, " ms") + measure::interval_after(measure::interval_of(r.median_ci95_ms))
                    : "no median";
    // Padded by the plain word: a painted one carries escape codes that take no room.
    const std::string outcome = enum_name(r.outcome);
    const std::string pad(12 - std::min<std::size_t>(12, outcome.size()), ' ');
    std::string line = fmt::format("  v{:<3} {}{} {:<32}", r.iteration, out.status(outcome), pad, median);
    if (r.speedup_vs_reference) line += fmt::format(" {:.3g}x ref", *r.speedup_vs_reference);
    if (!r.bottleneck.empty()) line += "  " + r.bottleneck;
    out.line(line.substr(0, line.find_last_not_of(' ') + 1));
    out.detail(fmt::format("        tags {}: {}", r.tags.empty() ? "(none)" : join(r.tags, ", "), r.reason));
  }
}

// The best as announced: the final confirmation's figures, else the record's marked as not
// confirmed yet.
void print_best(const printer& out, const report::run_report& rep) {
  const loop::run_manifest& m = rep.manifest;
  if (const loop::confirmation_attempt* a = rep.confirmed_best()) {
    out.line(fmt::format("{}: v{} at {}{}, {} ({})", out.status("best"), a->iteration, number(a->median_ms, " ms"),
                         a->median_ci95_ms ? fmt::format(" [{:.4g}, {:.4g}]", (*a->median_ci95_ms)[0], (*a->median_ci95_ms)[1]) : "",
                         loop::confirmed_speedups(*a, rep.confirmation->baseline), a->method));
    out.line(fmt::format("confirmed at {}: re-judged from its snapshot, clean under compute-sanitizer, compared in "
                         "turns with v{} once more",
                         rep.confirmation->confirmed_at, rep.confirmation->baseline));
    return;
  }
  if (rep.confirmation_state() == "none survived") {
    for (const auto& a : rep.confirmation->attempts) out.line(fmt::format("v{} failed the final confirmation: {}", a.iteration, a.reason));
    out.line("best: none: no version survived the final confirmation");
    return;
  }
  if (rep.confirmation_state() == "nothing to confirm") {
    out.line(fmt::format("best: none: no version beat the baseline v{} (confirmed)", rep.confirmation->baseline));
    return;
  }
  const loop::iteration_record* best = m.best ? m.find(*m.best) : nullptr;
  if (!best) {
    out.line("best: none yet (no version passed the judge with a full profile)");
    return;
  }
  const loop::iteration_record* v0 = m.find(0);
  std::string vs_v0;
  if (v0 && v0->median_ms && best->median_ms && *best->median_ms > 0) {
    vs_v0 = fmt::format(", {:.3g}x v0", *v0->median_ms / *best->median_ms);
  }
  out.line(fmt::format("{}: v{} at {}{}{}; {} {}", out.status("best"), best->iteration, number(best->median_ms, " ms"), vs_v0,
                       best->speedup_vs_reference ? fmt::format(", {:.3g}x the reference", *best->speedup_vs_reference)
                                                  : std::string(),
                       report::not_confirmed_note, rep.run_dir.string()));
}

void print_summary(const printer& out, const report::run_report& rep) {
  const loop::run_manifest& m = rep.manifest;
  out.line(fmt::format("{}: {} ({}, {}), {} iteration(s)", m.run_id, fs::path(m.kernel).filename().string(), m.backend,
                       m.arch.empty() ? "architecture unknown" : m.arch, m.iterations.size()));
  // Before any figure: they are not what kopt recorded.
  const bool tampered = rep.record.status == "tampered";
  if (tampered) out.line(fmt::format("{}: {} {}", out.status("tampered"), rep.record.file, rep.record.detail));
  print_iterations(out, m);
  if (tampered) {
    out.line("best: not announced: the run folder is not as kopt recorded it");
  } else {
    print_best(out, rep);
  }
  if (const auto rows = report::adoption_rows(rep); !rows.empty()) {
    out.line("adopted from the Python toolkit's run: its figures are unverified; kopt's are those it judged again");
    for (const auto& row : rows) out.line("  " + report::adoption_row_text(row));
  }
  if (const report::iteration_diagnosis* d = rep.best_diagnosis()) {
    out.detail(fmt::format("diagnosis of v{}: {}: {}", d->iteration, analyze::to_string(d->launch.verdict.cls),
                           d->launch.verdict.reason));
    for (std::size_t i = 0; i < d->launch.recommendations.size() && i < 3; ++i) {
      const auto& rec = d->launch.recommendations[i];
      out.detail(fmt::format("  try: {} (kopt kb show {})", rec.title, rec.id));
    }
  }
  for (const auto& s : rep.strategies) {
    std::string history;
    if (s.history) {
      history = fmt::format("; in the memory: {} positive, {} negative, {} neutral, {} inconclusive, {} rejected",
                            s.history->positive, s.history->negative, s.history->neutral, s.history->inconclusive,
                            s.history->rejected);
    }
    out.detail(fmt::format("strategy {} ({}){}{}", join(s.tags, ", "), s.fingerprint, s.blocked ? ", blocked" : "",
                           history));
  }
  out.line(rep.memory.read ? fmt::format("memory: {} (read only)", rep.memory.database)
                           : fmt::format("memory: not read: {}", rep.memory.note));
}

class report_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option("run_dir", m_run_dir,
                   "a run folder of kopt loop (optimize_runs/run_...) or of kopt tune (tune_runs/tune_...)")
        ->required();
    CLI::Option* html = sub.add_option("--html", m_html, "write the page to this file (default: report.html in the "
                                                         "run folder)");
    sub.add_option("--out", m_out, "write report.html into this folder instead of the run folder")->excludes(html);
    sub.add_option("--memory-db", m_memory_db,
                   "the strategy memory to read (default: the one the run's manifest names); read only");
    add_output_flags(sub, m_output,
                     "print the report's data as JSON (schema kopt.report/v1); the page is still written",
                     true);
  }

  int run(const pipeline::services&) override {
    if (report::is_tune_folder(m_run_dir)) return report_tune_folder(m_run_dir, page_file(m_run_dir), m_output);
    const report::run_report rep = report::gather_run_report(
        m_run_dir, m_memory_db.empty()                          ? std::nullopt
                   : memory::is_postgresql_url(m_memory_db) ? std::optional<fs::path>(m_memory_db)
                                                            : std::optional<fs::path>(fs::absolute(m_memory_db)));
    const fs::path page = page_file(rep.run_dir);
    report::page_options options = report::stamped_page_options();
    fs::path base = fs::relative(rep.run_dir, fs::absolute(page).parent_path());
    options.link_base = base.empty() ? "." : base.string();
    write_file_atomic(page, report::report_html(rep, options));
    if (rep.record.status == "unverified") {
      std::fprintf(stderr, "kopt: warning: run folder %s is unverified: %s\n", rep.run_dir.c_str(),
                   rep.record.detail.c_str());
    }
    // A run whose record differs from the ledger failed its check, as a kernel fails the judge.
    const exit_status status = rep.record.status == "tampered" ? exit_status::kernel_failed : exit_status::ok;
    if (m_output.json) {
      std::printf("%s\n", json_text(report::to_json(rep)).c_str());
      return static_cast<int>(status);
    }
    const printer out(m_output.level);
    print_summary(out, rep);
    out.result(fmt::format("wrote {}", page.string()));
    return static_cast<int>(status);
  }

 private:
  fs::path page_file(const fs::path& run_dir) const {
    if (!m_html.empty()) return fs::absolute(m_html);
    if (!m_out.empty()) {
      if (!fs::is_directory(m_out)) {
        throw error(fmt::format("--out {} is not a folder: create it first, or give --html FILE", m_out));
      }
      return fs::absolute(m_out) / "report.html";
    }
    return fs::absolute(run_dir) / "report.html";
  }

  std::string m_run_dir;
  std::string m_html;
  std::string m_out;
  std::string m_memory_db;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_report_command() { return std::make_unique<report_command>(); }

}  // namespace kopt::cli
