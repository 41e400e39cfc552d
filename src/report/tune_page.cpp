#include "report/tune_page.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"
#include "report/convergence_chart.h"
#include "report/html_text.h"
#include "report/page_style.h"

namespace kopt::report {
namespace {

std::string winner_html(const std::optional<tune::tune_winner>& w) {
  if (!w) return "<p class=\"headline\">No configuration passed the judge.</p>\n";
  std::string html = fmt::format("<p class=\"headline\">Winner: <code>{}</code>, median {} us: {}</p>\n",
                                 escape_html(w->configuration), short_number(w->median_ms * 1000, 5),
                                 escape_html(w->reason));
  return html +
         fmt::format("<p class=\"files\">tuned kernel: <code>{}</code></p>\n", escape_html(w->tuned_file));
}

std::string measured_table(const std::vector<tune::measured_configuration>& measured,
                           const std::optional<tune::tune_winner>& winner) {
  std::string html =
      "<table>\n<tr><th>#</th><th>configuration</th><th>verdict</th><th>median us</th><th>95 % interval "
      "us</th></tr>\n";
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const tune::measured_configuration& m = measured[i];
    const bool won = winner && winner->configuration == m.configuration;
    const std::string verdict = m.passed() ? (m.cached ? "passed (cached)" : "passed") : m.status;
    html += fmt::format(
        "<tr{}><td class=\"num\">{}</td><td><code>{}</code>{}</td><td>{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td></tr>\n",
        won ? " class=\"best\"" : "", i + 1, escape_html(m.configuration),
        won ? " <span class=\"best-mark\">winner</span>" : "",
        escape_html(m.passed() ? verdict : verdict + ": " + m.reason),
        m.median_ms ? short_number(*m.median_ms * 1000, 5) : "",
        m.median_ci95_ms ? fmt::format("{} to {}", short_number((*m.median_ci95_ms)[0] * 1000, 5),
                                       short_number((*m.median_ci95_ms)[1] * 1000, 5))
                         : "");
  }
  return html + "</table>\n";
}

std::string shape_section(const std::string& heading,
                          const std::vector<tune::measured_configuration>& measured, std::uint64_t allowed,
                          const std::string& stopped, const std::optional<tune::tune_winner>& winner) {
  std::string html = fmt::format("<h2>{}</h2>\n<p>{} of {} allowed configurations evaluated ({}).</p>\n",
                                 escape_html(heading), measured.size(), allowed, escape_html(stopped));
  html += winner_html(winner);
  html += "<h3>Convergence</h3>\n" + convergence_chart_svg(measured, "best median so far: " + heading);
  return html + "<h3>Every configuration, in the order evaluated</h3>\n" + measured_table(measured, winner);
}

}  // namespace

std::string tune_report_html(const tune::tune_result& r, const page_options& options) {
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>kopt tune: {}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n",
      escape_html(r.kernel), page_css);
  html += fmt::format("<h1>kopt tune: <code>{}</code></h1>\n<dl class=\"facts\">\n", escape_html(r.kernel));
  html += fact_row("reference", "<code>" + escape_html(r.reference) + "</code>");
  html += fact_row("dimensions", escape_html(join(r.dimensions, " ")));
  html += fact_row("strategy", escape_html(fmt::format("{} (seed {})", r.strategy, r.seed)));
  html +=
      fact_row("limits",
           escape_html(fmt::format("{}, {}", r.budget ? fmt::format("--budget {}", *r.budget) : "no budget",
                                   r.minutes ? fmt::format("--minutes {:g}", *r.minutes) : "no time limit")));
  html += fact_row("space",
               fmt::format("{} configurations, {} allowed by the restrictions", r.configurations, r.allowed));
  html += fact_row("run folder", "<code>" + escape_html(r.run_dir) + "</code>");
  html += "</dl>\n";
  html += shape_section("At " + join(r.dimensions, " "), r.measured, r.allowed, r.stopped, r.winner);
  for (const tune::shape_result& s : r.shapes) {
    html += shape_section("At " + s.shape, s.measured, s.allowed, s.stopped, s.winner);
  }
  html += fmt::format("<footer>written by kopt {} at {}</footer>\n</body>\n</html>\n",
                      escape_html(options.kopt_version), escape_html(options.generated_at));
  return html;
}

bool is_tune_folder(const std::filesystem::path& dir) {
  return std::filesystem::is_regular_file(dir / "tune_result.json");
}

tune::tune_result write_tune_report(const std::filesystem::path& dir, const std::filesystem::path& page,
                                    const page_options& options) {
  const std::filesystem::path file = dir / "tune_result.json";
  tune::tune_result result = tune::read_tune_result(read_json_file(file), file.string());
  write_file_atomic(page, tune_report_html(result, options));
  return result;
}

}  // namespace kopt::report
