#include "report/svg_axes.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/html_text.h"

namespace kopt::report {

double axis_scale::fraction(double value) const {
  if (logarithmic) return (std::log10(value) - std::log10(low)) / (std::log10(high) - std::log10(low));
  return (value - low) / (high - low);
}

double nice_step(double span, int count) {
  const double raw = span / count;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= raw) return m * decade;
  }
  return 10 * decade;
}

std::vector<double> axis_scale::ticks() const {
  std::vector<double> list;
  if (!(high > low)) return list;
  if (logarithmic) {
    for (double e = std::ceil(std::log10(low) - 1e-9); e <= std::log10(high) + 1e-9; e += 1) {
      list.push_back(std::pow(10.0, e));
    }
    return list;
  }
  const double step = std::max(nice_step(high - low, 6), min_step);
  for (double v = std::ceil(low / step - 1e-9) * step; v <= high + step * 1e-9; v += step) {
    list.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  }
  return list;
}

double plot_area::x_px(double value) const { return plot_left() + x.fraction(value) * (plot_right() - plot_left()); }

double plot_area::y_px(double value) const { return plot_bottom() - y.fraction(value) * (plot_bottom() - plot_top()); }

std::string px(double value) { return fmt::format("{:.2f}", value); }

std::string svg_open(const plot_area& area, const std::string& css_class, const std::string& title) {
  // Inline in HTML, an <svg> needs no namespace attribute (and the page names no URL at all).
  return fmt::format("<svg class=\"{}\" width=\"{}\" height=\"{}\" "
                     "viewBox=\"0 0 {} {}\" role=\"img\"><title>{}</title>\n",
                     css_class, px(area.width_px), px(area.height_px), px(area.width_px), px(area.height_px),
                     escape_html(title));
}

std::string draw_axes(const plot_area& a, const std::string& x_title, const std::string& y_title, tick_format x_text,
                      tick_format y_text) {
  std::string svg = "<g class=\"axes\">\n";
  for (const double v : a.x.ticks()) {
    const std::string x = px(a.x_px(v));
    svg += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>"
                       "<text class=\"tick\" x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
                       x, px(a.plot_top()), px(a.plot_bottom()), px(a.plot_bottom() + 16), escape_html(x_text(v)));
  }
  for (const double v : a.y.ticks()) {
    const std::string y = px(a.y_px(v));
    svg += fmt::format("<line class=\"grid\" x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\"/>"
                       "<text class=\"tick\" x=\"{3}\" y=\"{0}\" text-anchor=\"end\" dominant-baseline=\"middle\">{4}"
                       "</text>\n",
                       y, px(a.plot_left()), px(a.plot_right()), px(a.plot_left() - 6), escape_html(y_text(v)));
  }
  svg += fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", px(a.plot_left()),
                     px(a.plot_top()), px(a.plot_right() - a.plot_left()), px(a.plot_bottom() - a.plot_top()));
  svg += fmt::format("<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     px((a.plot_left() + a.plot_right()) / 2), px(a.height_px - 10), escape_html(x_title));
  const double middle = (a.plot_top() + a.plot_bottom()) / 2;
  svg += fmt::format("<text class=\"axis-title\" x=\"16\" y=\"{0}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 16 {0})\">{1}</text>\n",
                     px(middle), escape_html(y_title));
  return svg + "</g>\n";
}

}  // namespace kopt::report
