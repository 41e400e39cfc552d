// The report tool: `kopt report` for an agent. The run folder's story in a few lines (each
// iteration's outcome, the best version and its diagnosis), the page for people written into
// the run folder, and the whole report document only when asked.
#include <fmt/format.h>

#include "core/files.h"
#include "core/document.h"
#include "core/text.h"
#include "mcp/tool.h"
#include "report/html_page.h"
#include "report/report_json.h"
#include "report/run_report.h"
#include "report/tune_page.h"
#include "tune/tune_result.h"

namespace kopt::mcp {
namespace {

std::string iteration_line(const loop::iteration_record& r) {
  std::string line = fmt::format("v{} {}", r.iteration, r.outcome);
  if (r.median_ms) line += fmt::format(" {:.4g} ms", *r.median_ms);
  if (r.speedup_vs_reference) line += fmt::format(", {:.3g}x the reference", *r.speedup_vs_reference);
  if (!r.bottleneck.empty()) line += ", " + r.bottleneck;
  return line + ": " + shorten(r.reason, 200);
}

// A tune folder (tune_runs/tune_<time>/): its page written beside tune_result.json, the tune's
// table, and the result.
tool_output tune_report(const std::filesystem::path& dir) {
  const std::filesystem::path page = dir / "report.html";
  const tune::tune_result result = report::write_tune_report(dir, page, report::stamped_page_options());
  json structured = tune::to_json(result);
  structured["page"] = page.string();
  return {fmt::format("{}\nwrote {}", tune::tune_text(result), page.string()), structured};
}

tool_output report(const tool_call& call) {
  const std::filesystem::path dir = call.root.resolve(string_argument(call.arguments, "run_dir"));
  if (report::is_tune_folder(dir)) return tune_report(dir);
  const report::run_report rep = report::gather_run_report(dir);
  const loop::run_manifest& m = rep.manifest;
  const std::filesystem::path page = rep.run_dir / "report.html";
  write_file_atomic(page, report::report_html(rep, report::stamped_page_options()));

  std::string summary = fmt::format("{}: {} ({}), {} iteration(s)\n", m.run_id,
                                    std::filesystem::path(m.kernel).filename().string(), m.backend, m.iterations.size());
  // Before any figure: a run folder changed outside kopt announces no best (loop/run_ledger.h).
  if (rep.record.status != "verified") {
    summary += fmt::format("record {}: {}{}\n", rep.record.status, rep.record.file.empty() ? "" : rep.record.file + " ",
                           rep.record.detail);
  }
  json iterations = json::array();
  for (const loop::iteration_record& r : m.iterations) {
    summary += "  " + iteration_line(r) + "\n";
    iterations.push_back(json{{"iteration", r.iteration},
                              {"outcome", enum_name(r.outcome)},
                              {"median_ms", json_or_null(r.median_ms)},
                              {"speedup_vs_reference", json_or_null(r.speedup_vs_reference)},
                              {"bottleneck", r.bottleneck},
                              {"reason", r.reason}});
  }
  json best = nullptr;
  if (const loop::confirmation_attempt* a = rep.confirmed_best()) {
    best = json{{"iteration", a->iteration},
                {"snapshot", a->snapshot},
                {"median_ms", json_or_null(a->median_ms)},
                {"speedup_vs_reference", json_or_null(a->speedup_vs_reference)},
                {"confirmed", true}};
    summary += fmt::format("best: v{} ({}), confirmed: {}\n", a->iteration, a->snapshot, a->reason);
  } else if (rep.confirmation_state() != "not confirmed yet") {
    summary += fmt::format("best: none ({} in the final confirmation)\n", rep.confirmation_state());
  } else if (const loop::iteration_record* b = m.best ? m.find(*m.best) : nullptr) {
    best = json{{"iteration", b->iteration}, {"snapshot", b->snapshot}, {"median_ms", json_or_null(b->median_ms)},
                {"confirmed", false}};
    summary += fmt::format("best: v{} ({}); {} {}\n", b->iteration, b->snapshot, report::not_confirmed_note,
                           rep.run_dir.string());
  } else {
    summary += "best: none yet (no version passed the judge with a full profile)\n";
  }
  if (const report::iteration_diagnosis* d = rep.best_diagnosis()) {
    summary += fmt::format("its diagnosis: {}: {}\n", analyze::to_string(d->launch.verdict.cls), d->launch.verdict.reason);
    if (!d->launch.recommendations.empty()) {
      summary += fmt::format("first to try: {} (kb {})\n", d->launch.recommendations[0].title,
                             d->launch.recommendations[0].id);
    }
  }
  summary += fmt::format("wrote {}", page.string());
  json structured{{"run_dir", rep.run_dir.string()},
                  {"page", page.string()},
                  {"iterations", iterations},
                  {"best", best},
                  {"record_check", loop::to_json(rep.record)},
                  {"memory_read", rep.memory.read},
                  {"confirmation", rep.confirmation_state()}};
  if (string_argument(call.arguments, "detail") == "full") structured["report"] = report::to_json(rep);
  return {summary, structured};
}

}  // namespace

tool report_tool() {
  return {"report",
          "A kopt loop run folder in brief: every iteration's outcome, median, speedup and bottleneck, the best "
          "version and its diagnosis; writes report.html (charts, for people) into the run folder. Given a "
          "tune folder (tune_runs/tune_...), the tune's table and result, and its page with the convergence chart.",
          input_object(json{{"run_dir", json{{"type", "string"}, {"description", "a run folder in the workspace (optimize_runs/run_...) or a tune folder (tune_runs/tune_...)"}}},
                            {"detail", detail_schema()}},
                       json::array({"run_dir"})),
          report,
          output_object(json{{"run_dir", json{{"type", "string"}}},
                             {"page", json{{"type", "string"}}},
                             {"iterations", array_schema(json{{"type", "object"}})},
                             {"best", json{{"type", json::array({"object", "null"})}}},
                             {"memory_read", json{{"type", "boolean"}}},
                             {"confirmation", json{{"type", "string"}, {"description", "confirmed, none survived, nothing to confirm or not confirmed yet"}}},
                             {"report", json{{"type", "object"}, {"description", "the whole report (detail: full)"}}},
                             {"measured", json{{"type", "array"}, {"description", "a tune folder: every configuration measured"}}},
                             {"winner", json{{"type", json::array({"object", "null"})}, {"description", "a tune folder: its winner"}}}},
                        // A run folder's answer has iterations, best and memory_read; a tune folder's, measured and winner.
                        json::array({"run_dir", "page"})),
          false};
}

}  // namespace kopt::mcp
