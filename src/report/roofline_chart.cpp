#include "report/roofline_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "core/document.h"
#include "report/html_text.h"
#include "report/svg_axes.h"

namespace kopt::report {
namespace {

struct placed_point {
  const iteration_diagnosis* diagnosis;
  double intensity;     // [FLOP/byte]
  double flop_per_s;    // [FLOP/s]
};

struct roof_line {
  std::string kind;     // "fp32" or "tensor"
  std::string label;
  double flop_per_s;    // [FLOP/s]
};

bool has_roofs(const analyze::roofline& r) {
  return r.peak_dram_bytes_per_s && *r.peak_dram_bytes_per_s > 0 &&
         ((r.peak_fp32_flop_per_s && *r.peak_fp32_flop_per_s > 0) ||
          (r.peak_tensor_flop_per_s && *r.peak_tensor_flop_per_s > 0));
}

std::string why_not_placed(const analyze::roofline& r) {
  if (!r.dram_bytes || *r.dram_bytes <= 0) return "no DRAM traffic counted";
  if (!achieved_flop_per_s(r)) return "no floating-point work counted";
  return "no arithmetic intensity recorded";
}

std::string intensity_tick(double v) { return fmt::format("{:g}", v); }
std::string flops_tick(double v) { return si_number(v); }

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

std::vector<roof_line> compute_roofs(const analyze::roofline& r) {
  std::vector<roof_line> roofs;
  if (r.peak_fp32_flop_per_s && *r.peak_fp32_flop_per_s > 0) {
    roofs.push_back({"fp32", "FP32 " + si_number(*r.peak_fp32_flop_per_s) + "FLOP/s", *r.peak_fp32_flop_per_s});
  }
  if (r.peak_tensor_flop_per_s && *r.peak_tensor_flop_per_s > 0) {
    const std::string path = r.tensor_type.empty() ? "" : " (" + r.tensor_type + ")";
    roofs.push_back({"tensor", "tensor" + path + " " + si_number(*r.peak_tensor_flop_per_s) + "FLOP/s",
                     *r.peak_tensor_flop_per_s});
  }
  return roofs;
}

std::string roofs_svg(const plot_area& a, const analyze::roofline& r, std::int64_t from) {
  const double bandwidth = *r.peak_dram_bytes_per_s;
  const std::vector<roof_line> roofs = compute_roofs(r);
  double highest = 0;
  for (const auto& roof : roofs) highest = std::max(highest, roof.flop_per_s);
  // The memory roof rises until the highest compute roof; below the plot it is cut at its edge.
  const double x_start = std::max(a.x.low, a.y.low / bandwidth);
  const double x_end = std::min(a.x.high, highest / bandwidth);
  std::string svg = fmt::format("<g class=\"roofs\" data-from-iteration=\"{}\">\n", from);
  svg += fmt::format("<g class=\"roof\" data-roof=\"memory\" data-bytes-per-s=\"{}\"><line class=\"roof-memory\" "
                     "x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"roof-label\" x=\"{}\" y=\"{}\">DRAM {}B/s"
                     "</text></g>\n",
                     exact_number(bandwidth), px(a.x_px(x_start)), px(a.y_px(x_start * bandwidth)), px(a.x_px(x_end)),
                     px(a.y_px(x_end * bandwidth)), px(a.x_px(x_start) + 8), px(a.y_px(x_start * bandwidth) - 8),
                     escape_html(si_number(bandwidth)));
  for (const auto& roof : roofs) {
    const double ridge = roof.flop_per_s / bandwidth;  // [FLOP/byte] where this roof meets the memory roof
    const double y = a.y_px(roof.flop_per_s);
    svg += fmt::format("<g class=\"roof\" data-roof=\"{}\" data-flop-per-s=\"{}\" data-ridge-flop-per-byte=\"{}\">"
                       "<line class=\"roof-{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
                       "<text class=\"roof-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text></g>\n",
                       roof.kind, exact_number(roof.flop_per_s), exact_number(ridge), roof.kind,
                       px(a.x_px(std::max(ridge, a.x.low))), px(y), px(a.plot_right()), px(y), px(a.plot_right() - 6),
                       px(y - 6), escape_html(roof.label));
  }
  return svg + "</g>\n";
}

// `below`: the label goes under the point (every other point, so that neighbours' labels do
// not print over each other).
std::string point_svg(const plot_area& a, const placed_point& p, const std::string& outcome, bool below) {
  const double x = a.x_px(p.intensity);
  const double y = a.y_px(p.flop_per_s);
  const analyze::kernel_diagnosis& k = p.diagnosis->launch;
  return fmt::format("<g class=\"roofline-point\" data-iteration=\"{0}\" data-arithmetic-intensity=\"{1}\" "
                     "data-flop-per-s=\"{2}\" data-outcome=\"{3}\" data-kernel=\"{4}\"><title>v{0} ({3}): {4}; {5} "
                     "FLOP/byte, {6}FLOP/s, {7}</title><circle class=\"outcome-{3}\" cx=\"{8}\" cy=\"{9}\" r=\"6\"/>"
                     "<text class=\"point-label\" x=\"{10}\" y=\"{11}\">v{0}</text></g>\n",
                     p.diagnosis->iteration, exact_number(p.intensity), exact_number(p.flop_per_s),
                     escape_html(outcome), escape_html(k.kernel_name), short_number(p.intensity, 3),
                     escape_html(si_number(p.flop_per_s)), escape_html(std::string(analyze::to_string(k.verdict.cls))),
                     px(x), px(y), px(x + 9), px(below ? y + 16 : y - 8));
}

}  // namespace

std::optional<double> achieved_flop_per_s(const analyze::roofline& r) {
  if (!r.scalar_flop_per_s && !r.tensor_flop_per_s) return std::nullopt;
  const double all = r.scalar_flop_per_s.value_or(0) + r.tensor_flop_per_s.value_or(0);
  return all > 0 ? std::optional<double>(all) : std::nullopt;
}

std::optional<std::int64_t> roofs_iteration(const run_report& report) {
  if (const iteration_diagnosis* best = report.best_diagnosis(); best && has_roofs(best->launch.roof)) {
    return best->iteration;
  }
  for (auto d = report.diagnoses.rbegin(); d != report.diagnoses.rend(); ++d) {
    if (has_roofs(d->launch.roof)) return d->iteration;
  }
  return std::nullopt;
}

std::string roofline_chart_svg(const run_report& report) {
  std::vector<placed_point> placed;
  std::vector<const iteration_diagnosis*> unplaced;
  for (const auto& d : report.diagnoses) {
    const analyze::roofline& r = d.launch.roof;
    const auto achieved = achieved_flop_per_s(r);
    if (r.arithmetic_intensity && *r.arithmetic_intensity > 0 && achieved) {
      placed.push_back({&d, *r.arithmetic_intensity, *achieved});
    } else {
      unplaced.push_back(&d);
    }
  }
  const std::optional<std::int64_t> from = roofs_iteration(report);
  const analyze::roofline* roofs = from ? &report.diagnosis_of(*from)->launch.roof : nullptr;

  // The axes hold every point and the ridges, a decade around them.
  double x_low = std::numeric_limits<double>::max(), x_high = 0, y_low = std::numeric_limits<double>::max(), y_high = 0;
  for (const auto& p : placed) {
    x_low = std::min(x_low, p.intensity);
    x_high = std::max(x_high, p.intensity);
    y_low = std::min(y_low, p.flop_per_s);
    y_high = std::max(y_high, p.flop_per_s);
  }
  if (roofs) {
    for (const auto& roof : compute_roofs(*roofs)) {
      const double ridge = roof.flop_per_s / *roofs->peak_dram_bytes_per_s;
      x_low = std::min(x_low, ridge);
      x_high = std::max(x_high, ridge);
      y_high = std::max(y_high, roof.flop_per_s);
      y_low = std::min(y_low, roof.flop_per_s / 1e3);
    }
  }
  plot_area a;
  a.height_px = 420;
  a.top_px = 24;
  if (x_high > 0) {
    a.x = {decade_below(x_low / 10), decade_above(x_high * 10), true};
    a.y = {decade_below(y_low / 10), decade_above(y_high * 1.3), true};
  } else {
    a.x = {0.01, 1000, true};
    a.y = {1e9, 1e15, true};
  }
  std::string svg = svg_open(a, "roofline-chart", "Roofline: arithmetic intensity against achieved FLOP/s");
  svg += draw_axes(a, "arithmetic intensity [FLOP/byte of DRAM traffic]", "achieved [FLOP/s]", intensity_tick,
                   flops_tick);
  if (roofs) svg += roofs_svg(a, *roofs, *from);
  svg += "<g class=\"points\">\n";
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const loop::iteration_record* r = report.manifest.find(placed[i].diagnosis->iteration);
    svg += point_svg(a, placed[i], r ? enum_name(r->outcome) : "", i % 2 == 1);
  }
  for (const auto* d : unplaced) {
    svg += fmt::format("<g class=\"roofline-missing\" data-iteration=\"{}\" data-why=\"{}\"></g>\n", d->iteration,
                       escape_html(why_not_placed(d->launch.roof)));
  }
  return svg + "</g>\n" + svg_close;
}

}  // namespace kopt::report
