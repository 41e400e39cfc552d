#pragma once
// What the report's charts share: a plot area inside an SVG of fixed size, a linear or
// logarithmic scale per axis, and the axes drawn with ticks and labels. Pure functions from
// numbers to SVG text; no chart knows about pixels outside its plot area.

#include <string>
#include <vector>

namespace kopt::report {

struct axis_scale {
  double low = 0;   // the value at the axis's start (> 0 when logarithmic)
  double high = 1;  // at its end
  bool logarithmic = false;
  double min_step = 0;  // linear ticks no closer than this (1 for an axis of whole numbers)

  // Where `value` falls between 0 (low) and 1 (high); values outside give < 0 or > 1.
  double fraction(double value) const;
  // Tick values inside [low, high]: 1-2-5 steps (linear) or the powers of ten (logarithmic).
  std::vector<double> ticks() const;
};

// The smallest 1-2-5 × 10^k step that cuts [low, high] into at most `count` steps.
double nice_step(double span, int count);

struct plot_area {
  double width_px = 900;   // the whole SVG
  double height_px = 360;
  double left_px = 80;     // margins around the plot area, room for tick labels and titles
  double right_px = 20;
  double top_px = 20;
  double bottom_px = 56;
  axis_scale x;
  axis_scale y;

  double x_px(double value) const;  // into the SVG's user space
  double y_px(double value) const;
  double plot_left() const { return left_px; }
  double plot_right() const { return width_px - right_px; }
  double plot_top() const { return top_px; }
  double plot_bottom() const { return height_px - bottom_px; }
};

// `tick_text` formats a tick value for people.
using tick_format = std::string (*)(double);

// The frame, grid lines, ticks with labels and the two axis titles (escaped here).
std::string draw_axes(const plot_area& area, const std::string& x_title, const std::string& y_title,
                      tick_format x_text, tick_format y_text);

// The opening <svg> element (with a title for screen readers) and its closing tag.
std::string svg_open(const plot_area& area, const std::string& css_class, const std::string& title);
inline constexpr const char* svg_close = "</svg>\n";

// A number for an SVG coordinate: two decimals are well below a pixel.
std::string px(double value);

}  // namespace kopt::report
