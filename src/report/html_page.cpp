#include "report/html_page.h"

#include <fmt/format.h>

#include "core/text.h"
#include "measure/speed_of_light.h"
#include "report/html_sections.h"
#include "report/html_text.h"
#include "report/median_chart.h"
#include "report/roofline_chart.h"

namespace kopt::report {
namespace {

// Outcome colours are shared by the charts, the table's badges and the legends.
constexpr const char* page_css = R"css(
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px auto; max-width: 1200px;
       padding: 0 16px; color: #1d2330; background: #fff; line-height: 1.4; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; } h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #dde1e8; }
h3 { font-size: 1em; margin-bottom: 0.3em; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
pre.diff { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.85em; background: #f6f7fa;
           padding: 8px; overflow-x: auto; } ul.version { margin-top: 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
.facts dt { color: #5b6475; } .facts dd { margin: 0; overflow-wrap: anywhere; }
.headline { font-size: 1.1em; padding: 8px 12px; background: #f3f6fb; border-left: 4px solid #4c72b0; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 0.92em; }
th, td { border-bottom: 1px solid #e4e7ee; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f7fa; font-weight: 600; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.best td { background: #f1f8f1; } .best-mark { font-size: 0.8em; color: #2ca02c; font-weight: 600; }
td.reason { max-width: 360px; overflow-wrap: anywhere; } .files { font-size: 0.85em; }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; color: #fff; font-size: 0.85em; }
.tag { background: #eef1f6; padding: 0 4px; border-radius: 3px; }
.quiet, .memory-note { color: #5b6475; }
svg { display: block; margin: 8px 0; font-size: 12px; fill: #1d2330; max-width: 100%; height: auto; }
svg .grid { stroke: #eceef3; } svg .frame { fill: none; stroke: #9aa2b1; }
svg .tick { fill: #5b6475; } svg .axis-title { font-weight: 600; }
svg .ci { stroke: #1d2330; stroke-width: 1.5; }
svg .point-label { font-size: 11px; fill: #3a4252; }
svg .best-ring { fill: none; stroke: #1d2330; stroke-width: 2; }
svg .missing-column { stroke: #9aa2b1; stroke-dasharray: 4 4; } svg .missing-mark { font-size: 18px; fill: #6a3d9a; }
svg .roof-memory, svg .roof-fp32 { stroke: #1d2330; stroke-width: 2; } svg .roof-tensor { stroke: #1d2330; stroke-width: 2; stroke-dasharray: 6 4; }
svg .roof-label { font-size: 11px; fill: #3a4252; }
.outcome-baseline { fill: #4c72b0; background: #4c72b0; } .outcome-positive { fill: #2ca02c; background: #2ca02c; }
.outcome-negative { fill: #d62728; background: #d62728; } .outcome-neutral { fill: #7f7f7f; background: #7f7f7f; }
.outcome-inconclusive { fill: #e69500; background: #e69500; } .outcome-rejected { fill: #6a3d9a; background: #6a3d9a; }
footer { margin-top: 2em; font-size: 0.85em; color: #5b6475; }
)css";

std::string fact(const char* name, const std::string& value) {
  return fmt::format("<dt>{}</dt><dd>{}</dd>\n", name, value);
}

std::string header_html(const run_report& report) {
  const loop::run_manifest& m = report.manifest;
  std::string html = fmt::format("<h1>kopt report: {}</h1>\n<dl class=\"facts\">\n", escape_html(m.run_id));
  html += fact("kernel", "<code>" + escape_html(m.kernel) + "</code>");
  html += fact("reference", m.reference.empty() ? "none" : "<code>" + escape_html(m.reference) + "</code>");
  html += fact("backend, architecture", escape_html(m.backend + ", " + (m.arch.empty() ? "unknown" : m.arch)));
  html += fact("dimensions", "<code>" + escape_html(join(m.frozen.dims, " ")) + "</code>");
  html += fact("tolerances", escape_html(m.frozen.tolerances));
  html += fact("iterations", fmt::format("{} recorded (v0 to at most v{})", m.iterations.size(), m.max_iterations));
  html += fact("run", escape_html(fmt::format("{} to {}, kopt {}", m.created_at, m.updated_at, m.kopt_version)));
  html += fact("folder", "<code>" + escape_html(report.run_dir.string()) + "</code>");
  const loop::record_check& record = report.record;
  html += fact("record", escape_html(record.status == "verified"
                                         ? "verified against the ledger in " + record.ledger
                                         : record.status + ": " + (record.file.empty() ? "" : record.file + " ") +
                                               record.detail));
  html += "</dl>\n";
  if (const loop::confirmation_attempt* a = report.confirmed_best()) {
    return html + fmt::format("<p class=\"headline\">Best (confirmed): <strong>v{}</strong> at {} ms{}, {}× v{} ({}); "
                              "re-judged from its snapshot at {}, clean under compute-sanitizer.</p>\n",
                              a->iteration, short_number(a->median_ms, 5),
                              a->speedup_vs_reference
                                  ? fmt::format(", {}× the reference's speed", short_number(a->speedup_vs_reference, 3))
                                  : std::string(),
                              short_number(1 / a->ratio_vs_baseline.value_or(1), 3), report.confirmation->baseline,
                              escape_html(a->method), escape_html(report.confirmation->confirmed_at)) +
           (a->speed_of_light
                ? "<p class=\"headline\">It runs " + escape_html(measure::speed_of_light_line(*a->speed_of_light)) + ".</p>\n"
                : std::string());
  }
  const std::string state = report.confirmation_state();
  if (state == "none survived" || state == "nothing to confirm") {
    std::string why;
    for (const auto& a : report.confirmation->attempts) why += fmt::format(" v{}: {}.", a.iteration, a.reason);
    return html + fmt::format("<p class=\"headline\">No best: {} in the final confirmation.{}</p>\n",
                              state == "none survived" ? "no version survived" : "no version beat the baseline",
                              escape_html(why));
  }
  const std::string unconfirmed = fmt::format(" <em>{} {}</em>", not_confirmed_note, escape_html(report.run_dir.string()));
  const loop::iteration_record* best = m.best ? m.find(*m.best) : nullptr;
  const loop::iteration_record* baseline = m.find(0);
  if (record.status == "tampered") {
    return html + "<p class=\"headline\">Tampered: the run folder is not as kopt recorded it; no best is "
                  "announced.</p>\n";
  }
  if (best == nullptr) {
    return html + "<p class=\"headline\">No eligible version yet: none passed the judge with a full profile.</p>\n";
  }
  std::string vs_v0;
  if (baseline && baseline->median_ms && best->median_ms && *best->median_ms > 0) {
    vs_v0 = fmt::format(", {}× v0", short_number(*baseline->median_ms / *best->median_ms, 3));
  }
  return html + fmt::format("<p class=\"headline\">Best: <strong>v{}</strong> at {} ms (95 % interval {}){}{}.{}</p>\n",
                            best->iteration, short_number(best->median_ms, 5),
                            best->median_ci95_ms.is_array() && best->median_ci95_ms.size() == 2
                                ? fmt::format("[{}, {}] ms", short_number(best->median_ci95_ms[0].get<double>(), 5),
                                              short_number(best->median_ci95_ms[1].get<double>(), 5))
                                : std::string("n/a"),
                            best->speedup_vs_reference
                                ? fmt::format(", {}× the reference's speed", short_number(best->speedup_vs_reference, 3))
                                : std::string(),
                            vs_v0, unconfirmed);
}

std::string roofline_caption(const run_report& report) {
  std::string caption;
  if (const auto from = roofs_iteration(report)) {
    caption = fmt::format("Roofs from v{}'s analysis (the peaks its report recorded at its clocks). ", *from);
  } else {
    caption = "No profiled iteration recorded the peaks, so no roof is drawn. ";
  }
  for (const auto& d : report.diagnoses) {
    if (!d.launch.roof.arithmetic_intensity || *d.launch.roof.arithmetic_intensity <= 0 ||
        !achieved_flop_per_s(d.launch.roof)) {
      caption += fmt::format("v{} is not placed (its analysis counted no FLOPs or no DRAM bytes). ", d.iteration);
    }
  }
  if (report.diagnoses.empty()) caption += "No iteration was profiled. ";
  return "<p class=\"quiet\">" + escape_html(caption) +
         "Each point is the slowest launch of its iteration, coloured by its outcome as above.</p>\n";
}

}  // namespace

std::string report_html(const run_report& report, const page_options& options) {
  const loop::run_manifest& m = report.manifest;
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += fmt::format("<title>kopt report: {}</title>\n<style>{}</style>\n</head>\n<body>\n", escape_html(m.run_id),
                      page_css);
  html += header_html(report);
  html += "<h2>Iterations</h2>\n" + iteration_table_html(report, options.link_base);
  html += "<h2>GPU median per iteration</h2>\n<p class=\"quiet\">Kernel GPU time (cold L2), median with its 95 % "
          "interval (an interval narrower than its dot is hidden behind it: the table has the numbers); colour is the "
          "iteration's outcome against the best version when it ran.</p>\n";
  html += median_chart_svg(m);
  html += "<h2>Roofline</h2>\n" + roofline_caption(report) + roofline_chart_svg(report);
  html += "<h2>Diagnosis of the best version</h2>\n" + diagnosis_html(report);
  html += "<h2>Each version</h2>\n" + versions_html(report);
  html += "<h2>Strategy memory</h2>\n" + memory_html(report);
  if (const std::string adopted = adoption_html(report); !adopted.empty()) {
    html += "<h2>Adopted from the Python toolkit</h2>\n" + adopted;
  }
  html += fmt::format("<footer>Written by kopt {} at {} from <code>{}</code> (the run's record) and each profiled "
                      "iteration's <code>analysis.json</code>.</footer>\n",
                      escape_html(options.kopt_version), escape_html(options.generated_at), loop::run_manifest_name);
  return html + "</body>\n</html>\n";
}

}  // namespace kopt::report
