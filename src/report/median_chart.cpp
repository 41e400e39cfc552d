#include "report/median_chart.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "core/document.h"
#include "report/html_text.h"
#include "report/svg_axes.h"

namespace kopt::report {
namespace {

struct interval {
  double low = 0;
  double high = 0;
};

std::optional<interval> interval_of(const loop::iteration_record& r) {
  const json& ci = r.median_ci95_ms;
  if (!ci.is_array() || ci.size() != 2 || !ci[0].is_number() || !ci[1].is_number()) return std::nullopt;
  return interval{ci[0].get<double>(), ci[1].get<double>()};
}

std::string iteration_tick(double v) { return fmt::format("v{:.0f}", v); }
std::string ms_tick(double v) { return fmt::format("{:.4g}", v); }

// [ratio] slowest over fastest above which the y axis is logarithmic: a run that goes from
// 0.36 ms to 0.008 ms would otherwise draw every later version on the zero line.
constexpr double log_scale_span = 20;

// The values the y axis must hold, with a tenth of their span around them (never below zero),
// or on a logarithmic axis when they span more than log_scale_span.
axis_scale median_scale(const loop::run_manifest& m) {
  double low = std::numeric_limits<double>::max();
  double high = std::numeric_limits<double>::lowest();
  for (const auto& r : m.iterations) {
    if (!r.median_ms) continue;
    low = std::min(low, *r.median_ms);
    high = std::max(high, *r.median_ms);
    if (const auto ci = interval_of(r)) {
      low = std::min(low, ci->low);
      high = std::max(high, ci->high);
    }
  }
  if (low > high) return {0, 1, false};  // nothing timed
  if (low > 0 && high / low > log_scale_span) return {low / 1.5, high * 1.5, true};
  const double pad = high > low ? (high - low) / 10 : std::max(high, 1e-6) / 10;
  return {std::max(0.0, low - pad), high + pad, false};
}

std::vector<std::string> outcomes_in(const loop::run_manifest& m) {
  std::vector<std::string> seen;
  for (const auto& name : outcome_order()) {
    for (const auto& r : m.iterations) {
      if (enum_name(r.outcome) == name) {
        seen.push_back(name);
        break;
      }
    }
  }
  for (const auto& r : m.iterations) {
    if (std::find(seen.begin(), seen.end(), enum_name(r.outcome)) == seen.end())
      seen.push_back(enum_name(r.outcome));
  }
  return seen;
}

std::string legend(const plot_area& a, const loop::run_manifest& m) {
  std::string svg = "<g class=\"legend\">\n";
  double x = a.plot_left();
  for (const auto& outcome : outcomes_in(m)) {
    svg += fmt::format("<g class=\"legend-entry\" data-outcome=\"{0}\"><circle class=\"outcome-{0}\" cx=\"{1}\" "
                       "cy=\"14\" r=\"6\"/><text x=\"{2}\" y=\"14\" dominant-baseline=\"middle\">{0}</text></g>\n",
                       escape_html(outcome), px(x + 6), px(x + 16));
    x += 30 + 8.0 * static_cast<double>(outcome.size());
  }
  svg += fmt::format("<g class=\"legend-entry\" data-outcome=\"none\"><text class=\"missing-mark\" x=\"{}\" y=\"14\" "
                     "text-anchor=\"middle\" dominant-baseline=\"middle\">×</text><text x=\"{}\" y=\"14\" "
                     "dominant-baseline=\"middle\">no median</text></g>\n",
                     px(x + 6), px(x + 16));
  x += 110;
  svg += fmt::format("<g class=\"legend-entry\" data-outcome=\"best\"><circle class=\"best-ring\" cx=\"{}\" cy=\"14\" "
                     "r=\"9\"/><text x=\"{}\" y=\"14\" dominant-baseline=\"middle\">best version</text></g>\n",
                     px(x + 9), px(x + 22));
  return svg + "</g>\n";
}

std::string timed_point(const plot_area& a, const loop::iteration_record& r, bool best) {
  const double x = a.x_px(static_cast<double>(r.iteration));
  const double y = a.y_px(*r.median_ms);
  const auto ci = interval_of(r);
  const std::string outcome = escape_html(enum_name(r.outcome));
  std::string g = fmt::format("<g class=\"iteration-point\" data-iteration=\"{}\" data-median-ms=\"{}\"", r.iteration,
                              exact_number(*r.median_ms));
  if (ci) g += fmt::format(" data-ci-low=\"{}\" data-ci-high=\"{}\"", exact_number(ci->low), exact_number(ci->high));
  g += fmt::format(" data-outcome=\"{}\"{}>", outcome, best ? " data-best=\"true\"" : "");
  g += fmt::format("<title>v{}: {}; median {} ms{}</title>", r.iteration, outcome, short_number(r.median_ms, 6),
                   ci ? fmt::format(", 95 % interval [{}, {}] ms", short_number(ci->low, 6), short_number(ci->high, 6))
                      : std::string(", no interval recorded"));
  if (ci) {
    const std::string top = px(a.y_px(ci->high));
    const std::string bottom = px(a.y_px(ci->low));
    g += fmt::format("<line class=\"ci\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>"
                     "<line class=\"ci\" x1=\"{3}\" y1=\"{1}\" x2=\"{4}\" y2=\"{1}\"/>"
                     "<line class=\"ci\" x1=\"{3}\" y1=\"{2}\" x2=\"{4}\" y2=\"{2}\"/>",
                     px(x), top, bottom, px(x - 7), px(x + 7));
  }
  if (best) g += fmt::format("<circle class=\"best-ring\" cx=\"{}\" cy=\"{}\" r=\"10\"/>", px(x), px(y));
  g += fmt::format("<circle class=\"outcome-{}\" cx=\"{}\" cy=\"{}\" r=\"6\"/>", outcome, px(x), px(y));
  g += fmt::format("<text class=\"point-label\" x=\"{}\" y=\"{}\">{} ms</text>", px(x + 12), px(y - 8),
                   short_number(r.median_ms, 4));
  return g + "</g>\n";
}

// A gap the reader cannot mistake for a fast version: a dashed column and a cross on the axis.
std::string missing_point(const plot_area& a, const loop::iteration_record& r) {
  const double x = a.x_px(static_cast<double>(r.iteration));
  const std::string outcome = escape_html(enum_name(r.outcome));
  return fmt::format("<g class=\"iteration-missing\" data-iteration=\"{0}\" data-outcome=\"{1}\"><title>v{0}: {1}, "
                     "no median: {2}</title><line class=\"missing-column\" x1=\"{3}\" y1=\"{4}\" x2=\"{3}\" y2=\"{5}\"/>"
                     "<text class=\"missing-mark\" x=\"{3}\" y=\"{6}\" text-anchor=\"middle\">×</text>"
                     "<text class=\"point-label\" x=\"{3}\" y=\"{7}\" text-anchor=\"middle\">no median</text></g>\n",
                     r.iteration, outcome, escape_html(r.reason), px(x), px(a.plot_top()), px(a.plot_bottom()),
                     px(a.plot_bottom() - 10), px(a.plot_bottom() - 28));
}

}  // namespace

const std::vector<std::string>& outcome_order() {
  static const std::vector<std::string> order = {"baseline", "positive", "negative", "neutral", "inconclusive", "rejected"};
  return order;
}

std::string median_chart_svg(const loop::run_manifest& m) {
  plot_area a;
  a.top_px = 36;  // the legend's row
  const double last = m.iterations.empty() ? 0 : static_cast<double>(m.iterations.back().iteration);
  a.x = {-0.5, std::max(last, 1.0) + 0.5, false, 1};
  a.y = median_scale(m);
  std::string svg = svg_open(a, "median-chart", "GPU median per iteration with its 95 % interval");
  svg += draw_axes(a, "iteration", "kernel GPU median [ms]", iteration_tick, ms_tick);
  svg += legend(a, m);
  svg += "<g class=\"points\">\n";
  for (const auto& r : m.iterations) {
    svg += r.median_ms ? timed_point(a, r, m.best && *m.best == r.iteration) : missing_point(a, r);
  }
  return svg + "</g>\n" + svg_close;
}

}  // namespace kopt::report
