#include "report/convergence_chart.h"

#include <algorithm>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "report/html_text.h"
#include "report/svg_axes.h"

namespace kopt::report {
namespace {

std::string evaluation_tick(double v) {
  return fmt::format("{:.0f}", v);
}
std::string us_tick(double v) {
  return fmt::format("{:.4g}", v);
}

// [ratio] slowest over fastest above which the time axis is logarithmic: a space whose worst
// configuration is 30x its best would otherwise press the converged part onto the best line.
constexpr double convergence_log_span = 10;

axis_scale time_scale(const std::vector<tune::measured_configuration>& measured) {
  double low = std::numeric_limits<double>::max();
  double high = std::numeric_limits<double>::lowest();
  for (const tune::measured_configuration& m : measured) {
    if (!m.passed()) continue;
    low = std::min(low, *m.median_ms * 1000);
    high = std::max(high, *m.median_ms * 1000);
  }
  if (low > high) return {0, 1, false};  // nothing passed
  if (low > 0 && high / low > convergence_log_span) return {low / 1.3, high * 1.3, true};
  const double pad = high > low ? (high - low) / 10 : std::max(high, 1e-6) / 10;
  return {std::max(0.0, low - pad), high + pad, false};
}

std::string evaluation_point(const plot_area& a, std::size_t n, const tune::measured_configuration& m) {
  const double x = a.x_px(static_cast<double>(n));
  std::string g = fmt::format(
      "<g class=\"evaluation\" data-evaluation=\"{}\" data-configuration=\"{}\" "
      "data-status=\"{}\"",
      n, escape_html(m.configuration), escape_html(m.status));
  if (!m.passed()) {
    return g + fmt::format(
                   "><title>{}: {}: {}</title><text class=\"evaluation-failed\" x=\"{}\" y=\"{}\" "
                   "text-anchor=\"middle\">×</text></g>\n",
                   escape_html(m.configuration), escape_html(m.status), escape_html(m.reason), px(x),
                   px(a.plot_bottom() - 6));
  }
  const double us = *m.median_ms * 1000;
  g += fmt::format(" data-median-ms=\"{}\"{}>", exact_number(*m.median_ms),
                   m.cached ? " data-cached=\"true\"" : "");
  g += fmt::format("<title>{}: median {} us{}</title>", escape_html(m.configuration), short_number(us, 5),
                   m.cached ? " (from the cache)" : "");
  g += fmt::format("<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"4\"/>",
                   m.cached ? "evaluation-cached" : "evaluation-passed", px(x), px(a.y_px(us)));
  return g + "</g>\n";
}

// The best median so far, held from the first configuration that passed to the last evaluation.
std::string best_so_far_line(const plot_area& a, const std::vector<tune::measured_configuration>& measured) {
  std::optional<double> best;
  std::string points;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const tune::measured_configuration& m = measured[i];
    const double x = a.x_px(static_cast<double>(i + 1));
    if (m.passed() && (!best || *m.median_ms < *best)) {
      if (best) points += fmt::format("{},{} ", px(x), px(a.y_px(*best * 1000)));
      best = *m.median_ms;
    }
    if (best) points += fmt::format("{},{} ", px(x), px(a.y_px(*best * 1000)));
  }
  if (!best) return "";
  return fmt::format("<polyline class=\"best-so-far\" data-best-ms=\"{}\" points=\"{}\"/>\n",
                     exact_number(*best), points.substr(0, points.size() - 1));
}

}  // namespace

std::string convergence_chart_svg(const std::vector<tune::measured_configuration>& measured,
                                  const std::string& title) {
  plot_area a;
  a.x = {0.5, std::max<double>(static_cast<double>(measured.size()), 1.0) + 0.5, false, 1};
  a.y = time_scale(measured);
  std::string svg = svg_open(a, "convergence-chart", title);
  svg += draw_axes(a, "configurations evaluated", "median us (line: best so far)", evaluation_tick, us_tick);
  svg += best_so_far_line(a, measured);
  for (std::size_t i = 0; i < measured.size(); ++i) svg += evaluation_point(a, i + 1, measured[i]);
  return svg + svg_close;
}

}  // namespace kopt::report
