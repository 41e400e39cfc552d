#include "report/html_sections.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/document.h"
#include "core/text.h"
#include "measure/interval_text.h"
#include "report/html_text.h"
#include "report/toolkit_adoption_rows.h"

namespace kopt::report {
namespace {

std::string outcome_badge(const std::string& outcome) {
  return fmt::format("<span class=\"badge outcome-{0}\">{0}</span>", escape_html(outcome));
}

std::string tags_html(const std::vector<std::string>& tags) {
  if (tags.empty()) return "<span class=\"quiet\">(none given)</span>";
  std::string out;
  for (const auto& t : tags) out += fmt::format("<code class=\"tag\">{}</code> ", escape_html(t));
  return out;
}

// A link into the run folder; never a scheme, always a path below link_base.
std::string file_link(const std::string& link_base, const std::string& relative, const std::string& text) {
  return fmt::format("<a href=\"{}/{}\">{}</a>", escape_html(link_base), escape_html(relative), escape_html(text));
}

std::string percent(const std::optional<double>& v) { return v ? short_number(v, 3) + " %" : "n/a"; }

std::string evidence_table(const analyze::kernel_diagnosis& k) {
  if (k.verdict.numbers.empty()) return "";
  std::string html = "<table class=\"evidence\"><thead><tr><th>evidence</th><th>value</th><th>metric</th></tr></thead>"
                     "<tbody>\n";
  for (const auto& e : k.verdict.numbers) {
    html += fmt::format("<tr><td>{}</td><td class=\"num\">{} {}</td><td><code>{}</code></td></tr>\n",
                        escape_html(e.name), short_number(e.value, 4), escape_html(e.unit), escape_html(e.metric));
  }
  return html + "</tbody></table>\n";
}

std::string measures_list(const analyze::kernel_diagnosis& k) {
  std::vector<std::string> stalls;
  for (const auto& s : k.issue.stalls) {
    if (stalls.size() == 3) break;
    stalls.push_back(fmt::format("{} {} %", s.reason, short_number(s.share_pct, 3)));
  }
  const auto& r = k.roof;
  std::string html = "<ul class=\"measures\">\n";
  html += fmt::format("<li>speed of light: SM {}, memory {} ({})</li>\n", percent(k.sol.sm_pct),
                      percent(k.sol.memory_pct), escape_html(k.sol.memory_unit.empty() ? "unit unknown" : k.sol.memory_unit));
  html += fmt::format("<li>occupancy: achieved {} of theoretical {}; limited by {}</li>\n", percent(k.occ.achieved_pct),
                      percent(k.occ.theoretical_pct),
                      escape_html(k.occ.limiters.empty() ? "nothing reported" : join(k.occ.limiters, ", ")));
  if (!stalls.empty()) html += fmt::format("<li>top stall reasons: {}</li>\n", escape_html(join(stalls, ", ")));
  if (r.arithmetic_intensity) {
    html += fmt::format("<li>roofline: {} FLOP/byte, {}-bound side of the ridge{}</li>\n",
                        short_number(r.arithmetic_intensity, 3), escape_html(r.bound_by.empty() ? "unknown" : r.bound_by),
                        r.headroom ? fmt::format(", {}x headroom to the roof", short_number(r.headroom, 3)) : "");
  }
  return html + "</ul>\n";
}

std::string recommendations_html(const analyze::kernel_diagnosis& k) {
  if (k.recommendations.empty()) return "<p class=\"quiet\">The knowledge base had no recommendation.</p>\n";
  std::string html = "<h3>Top recommendations</h3>\n<ol class=\"recommendations\">\n";
  const std::size_t shown = std::min<std::size_t>(3, k.recommendations.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& rec = k.recommendations[i];
    html += fmt::format("<li><strong>{}</strong> <code>{}</code><br><span class=\"quiet\">{}</span><br>tags: {}</li>\n",
                        escape_html(rec.title), escape_html(rec.id), escape_html(rec.why), tags_html(rec.tags));
  }
  return html + "</ol>\n";
}

std::string hot_lines_html(const analyze::kernel_diagnosis& k) {
  if (k.hottest_source_lines.empty()) {
    return "<p class=\"quiet\">No hottest source lines: the analysis found no source counters for this "
           "kernel.</p>\n";
  }
  std::string html = "<h3>Hottest source lines</h3>\n<table class=\"hot-lines\"><thead><tr><th>line</th><th>share of "
                     "samples</th><th>top stall</th><th>source</th></tr></thead><tbody>\n";
  for (const auto& h : k.hottest_source_lines) {
    const std::string file = std::filesystem::path(h.file).filename().string();
    html += fmt::format("<tr class=\"hot-line\" data-line=\"{}\"><td title=\"{}\">{}:{}</td><td class=\"num\">{} %</td>"
                        "<td>{}</td><td><code>{}</code></td></tr>\n",
                        h.line, escape_html(h.file), escape_html(file), h.line, short_number(h.share_pct, 3),
                        escape_html(h.top_stall), escape_html(h.text));
  }
  return html + "</tbody></table>\n";
}

std::string history_cells(const strategy_conclusion& s, bool memory_read) {
  if (!s.history) return fmt::format("<td colspan=\"5\" class=\"quiet\">{}</td>", memory_read ? "not in the memory" : "—");
  const auto& h = *s.history;
  return fmt::format("<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                     "<td class=\"num\">{}</td>",
                     h.positive, h.negative, h.neutral, h.inconclusive, h.rejected);
}

}  // namespace

std::string iteration_table_html(const run_report& report, const std::string& link_base) {
  const loop::run_manifest& m = report.manifest;
  std::string html = "<table class=\"iterations\"><thead><tr><th>version</th><th>strategy tags</th><th>outcome</th>"
                     "<th>median ms</th><th>95 % interval ms</th><th>speedup vs reference</th><th>bottleneck</th>"
                     "<th>reason</th></tr></thead><tbody>\n";
  for (const auto& r : m.iterations) {
    const bool best = m.best && *m.best == r.iteration;
    std::string files = file_link(link_base, r.snapshot, "source");
    if (!r.bottleneck.empty()) {
      files += " · " + file_link(link_base, fmt::format("iter_v{}/analysis.md", r.iteration), "analysis");
    }
    html += fmt::format(
        "<tr class=\"iteration-row{}\" data-iteration=\"{}\" data-outcome=\"{}\"><td>v{}{}<br>"
        "<span class=\"files\">{}</span></td><td>{}</td><td>{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}{}</td><td class=\"reason\">{}</td></tr>\n",
        best ? " best" : "", r.iteration, escape_html(enum_name(r.outcome)), r.iteration,
        best ? " <span class=\"best-mark\">best</span>" : "", files, tags_html(r.tags),
        outcome_badge(enum_name(r.outcome)), short_number(r.median_ms, 5), measure::interval_text(measure::interval_of(r.median_ci95_ms), "{:.5g}"),
        r.speedup_vs_reference ? short_number(r.speedup_vs_reference, 3) + "×" : "n/a",
        escape_html(r.bottleneck.empty() ? "—" : r.bottleneck),
        r.at_hardware_limit ? " (at the hardware limit)" : "", escape_html(r.reason));
  }
  return html + "</tbody></table>\n";
}

std::string diagnosis_html(const run_report& report) {
  const iteration_diagnosis* d = report.best_diagnosis();
  if (d == nullptr) {
    return "<p class=\"quiet\">No diagnosis to show: the run has no best version with a full profile yet.</p>\n";
  }
  const analyze::kernel_diagnosis& k = d->launch;
  std::string html = fmt::format("<p class=\"diagnosis-head\" data-iteration=\"{}\">v{}: <code>{}</code>{} — "
                                 "bottleneck <strong class=\"class\">{}</strong>{}</p>\n<p>{}</p>\n",
                                 d->iteration, d->iteration, escape_html(k.kernel_name),
                                 d->launches > 1 ? fmt::format(" (the slowest of {} launches)", d->launches) : "",
                                 escape_html(std::string(analyze::to_string(k.verdict.cls))),
                                 k.verdict.at_hardware_limit ? ", at the hardware limit" : "",
                                 escape_html(k.verdict.reason));
  return html + evidence_table(k) + measures_list(k) + recommendations_html(k) + hot_lines_html(k);
}

namespace {

std::string resources_html(const analyze::kernel_diagnosis& k) {
  const auto& l = k.launch;
  return fmt::format("<li>{} registers per thread, {} of shared memory per block; occupancy {} achieved of {} "
                     "theoretical{}</li>\n<li>{}: {}</li>\n",
                     short_number(l.registers_per_thread, 3),
                     l.shared_mem_per_block_bytes ? si_number(*l.shared_mem_per_block_bytes) + "B" : "n/a",
                     percent(k.occ.achieved_pct), percent(k.occ.theoretical_pct),
                     k.occ.limiters.empty() ? "" : " (limited by " + escape_html(join(k.occ.limiters, ", ")) + ")",
                     escape_html(std::string(analyze::to_string(k.verdict.cls))), escape_html(k.verdict.reason));
}

std::string change_html(const source_change& c) {
  if (c.diff.empty()) return "<li class=\"quiet\">" + escape_html(c.note) + "</li>\n";
  return fmt::format("<li><details><summary>what changed from v{}{}</summary><pre class=\"diff\">{}</pre></details></li>\n",
                     c.parent.value_or(0), c.note.empty() ? "" : " (" + escape_html(c.note) + ")", escape_html(c.diff));
}

}  // namespace

std::string versions_html(const run_report& report) {
  std::string html;
  for (const auto& r : report.manifest.iterations) {
    html += fmt::format("<h3 data-iteration=\"{}\">v{}{}: {} {}</h3>\n<ul class=\"version\">\n", r.iteration,
                        r.iteration, r.parent ? fmt::format(" (from v{})", *r.parent) : "",
                        outcome_badge(enum_name(r.outcome)), tags_html(r.tags));
    if (const iteration_diagnosis* d = report.diagnosis_of(r.iteration)) html += resources_html(d->launch);
    for (const auto& c : report.changes) {
      if (c.iteration == r.iteration) html += change_html(c);
    }
    html += "</ul>\n";
  }
  return html;
}

std::string memory_html(const run_report& report) {
  std::string html;
  if (report.memory.read) {
    html += fmt::format("<p>Strategy memory <code>{}</code>, read only: each strategy's outcomes in every run recorded "
                        "there on this backend.</p>\n",
                        escape_html(report.memory.database));
  } else {
    html += fmt::format("<p class=\"memory-note\">The strategy memory was not read: {}. The outcomes below are this "
                        "run's, from its manifest.</p>\n",
                        escape_html(report.memory.note));
  }
  if (report.strategies.empty()) return html + "<p class=\"quiet\">The run named no strategy.</p>\n";
  html += "<table class=\"strategies\"><thead><tr><th>strategy tags</th><th>fingerprint</th><th>in this run</th>"
          "<th>blocked</th><th>positive</th><th>negative</th><th>neutral</th><th>inconclusive</th><th>rejected</th>"
          "</tr></thead><tbody>\n";
  for (const auto& s : report.strategies) {
    std::vector<std::string> tried;
    for (std::size_t i = 0; i < s.iterations.size(); ++i) {
      tried.push_back(fmt::format("v{} {}", s.iterations[i], outcome_badge(s.outcomes[i])));
    }
    html += fmt::format("<tr class=\"strategy\" data-fingerprint=\"{}\"><td>{}</td><td><code>{}</code></td><td>{}</td>"
                        "<td>{}</td>{}</tr>\n",
                        escape_html(s.fingerprint), tags_html(s.tags), escape_html(s.fingerprint), join(tried, "<br>"),
                        s.blocked ? "blocked for the rest of the run" : "no", history_cells(s, report.memory.read));
  }
  return html + "</tbody></table>\n";
}

std::string adoption_html(const run_report& report) {
  const std::vector<adoption_row> rows = adoption_rows(report);
  if (rows.empty()) return "";
  std::string html =
      "<p>This run folder began as a run of the Python toolkit. Its figures are the toolkit's own and kopt never "
      "checked them: they are <strong>unverified</strong>. kopt judged again from their snapshots the versions with a "
      "kopt iteration beside them; only those figures are kopt's.</p>\n"
      "<table class=\"adoption\"><thead><tr><th>toolkit version</th><th>its median (unverified)</th><th>its outcome"
      "</th><th>strategy tags</th><th>judged by kopt as</th><th>kopt's median</th><th>kopt's outcome</th></tr>"
      "</thead><tbody>\n";
  for (const adoption_row& r : rows) {
    html += fmt::format(
        "<tr><td>v{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        r.toolkit_iteration, r.toolkit_best ? " (its best)" : "",
        r.toolkit_median_ms ? fmt::format("{} ms", short_number(*r.toolkit_median_ms, 4)) : "no time",
        r.toolkit_outcome.empty() ? "" : outcome_badge(r.toolkit_outcome), tags_html(r.tags),
        r.judged_as ? fmt::format("v{}", *r.judged_as) : "not judged again",
        r.kopt_median_ms ? fmt::format("{} ms", short_number(*r.kopt_median_ms, 4)) : "",
        r.kopt_outcome.empty() ? "" : outcome_badge(r.kopt_outcome));
  }
  return html + "</tbody></table>\n";
}

}  // namespace kopt::report
