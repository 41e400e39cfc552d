#include "report/html_page.h"

#include <fmt/format.h>

#include "core/text.h"
#include "core/utc_time.h"
#include "core/version.h"
#include "measure/speed_of_light.h"
#include "report/html_sections.h"
#include "report/html_text.h"
#include "report/median_chart.h"
#include "report/page_style.h"
#include "report/roofline_chart.h"

namespace kopt::report {
namespace {

std::string header_html(const run_report& report) {
  const loop::run_manifest& m = report.manifest;
  std::string html = fmt::format("<h1>kopt report: {}</h1>\n<dl class=\"facts\">\n", escape_html(m.run_id));
  html += fact_row("kernel", "<code>" + escape_html(m.kernel) + "</code>");
  html += fact_row("reference", m.reference.empty() ? "none" : "<code>" + escape_html(m.reference) + "</code>");
  html += fact_row("backend, architecture", escape_html(m.backend + ", " + (m.arch.empty() ? "unknown" : m.arch)));
  html += fact_row("dimensions", "<code>" + escape_html(join(m.frozen.dims, " ")) + "</code>");
  html += fact_row("tolerances", escape_html(m.frozen.tolerances));
  html += fact_row("iterations", fmt::format("{} recorded (v0 to at most v{})", m.iterations.size(), m.max_iterations));
  html += fact_row("run", escape_html(fmt::format("{} to {}, kopt {}", m.created_at, m.updated_at, m.kopt_version)));
  html += fact_row("folder", "<code>" + escape_html(report.run_dir.string()) + "</code>");
  const loop::record_check& record = report.record;
  html += fact_row("record", escape_html(record.status == "verified"
                                         ? "verified against the ledger in " + record.ledger
                                         : record.status + ": " + (record.file.empty() ? "" : record.file + " ") +
                                               record.detail));
  html += "</dl>\n";
  if (const loop::confirmation_attempt* a = report.confirmed_best()) {
    return html + fmt::format("<p class=\"headline\">Best (confirmed): <strong>v{}</strong> at {} ms, {} ({}); "
                              "re-judged from its snapshot at {}, clean under compute-sanitizer.</p>\n",
                              a->iteration, short_number(a->median_ms, 5),
                              escape_html(loop::confirmed_speedups(*a, report.confirmation->baseline)),
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

page_options stamped_page_options() {
  page_options options;
  options.generated_at = utc_timestamp();
  options.kopt_version = version_string;
  return options;
}

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
