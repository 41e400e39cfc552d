// The SVG charts, on runs made by hand: one median point per timed iteration with its interval,
// a marked gap (never a zero) for an iteration without a median, colours and a legend by
// outcome; one roofline point per profiled iteration, under roofs taken from the analysis.
#include <gtest/gtest.h>

#include "core/document.h"
#include "page_elements.h"
#include "report/html_text.h"
#include "report/median_chart.h"
#include "report/roofline_chart.h"
#include "report/svg_axes.h"

namespace kopt::report {
namespace {

using testing::elements_with_class;
using testing::number_attribute;

loop::iteration_record timed(std::int64_t k, loop::version_outcome outcome, double median_ms) {
  loop::iteration_record r;
  r.iteration = k;
  r.outcome = outcome;
  r.median_ms = median_ms;
  r.median_ci95_ms = json::array({median_ms * 0.99, median_ms * 1.01});
  return r;
}

loop::run_manifest four_iterations() {
  loop::run_manifest m;
  m.iterations = {
      timed(0, loop::version_outcome::baseline, 0.2), timed(1, loop::version_outcome::positive, 0.125),
      timed(2, loop::version_outcome::rejected, 0), timed(3, loop::version_outcome::neutral, 0.126)};
  m.iterations[2].median_ms.reset();
  m.iterations[2].median_ci95_ms = nullptr;
  m.iterations[2].reason = "validation failed: <wrong> & \"bad\"";
  m.best = 1;
  return m;
}

TEST(MedianChart, OnePointPerTimedIterationWithItsInterval) {
  const loop::run_manifest m = four_iterations();
  const std::string svg = median_chart_svg(m);
  const auto points = elements_with_class(svg, "g", "iteration-point");
  ASSERT_EQ(points.size(), 3u);
  const std::vector<std::size_t> timed_index = {0, 1, 3};
  for (std::size_t i = 0; i < points.size(); ++i) {
    const loop::iteration_record& r = m.iterations[timed_index[i]];
    EXPECT_EQ(points[i].at("data-iteration"), std::to_string(r.iteration));
    EXPECT_EQ(number_attribute(points[i], "data-median-ms"), *r.median_ms);
    EXPECT_EQ(number_attribute(points[i], "data-ci-low"), r.median_ci95_ms[0].get<double>());
    EXPECT_EQ(number_attribute(points[i], "data-ci-high"), r.median_ci95_ms[1].get<double>());
    EXPECT_EQ(points[i].at("data-outcome"), enum_name(r.outcome));
  }
  EXPECT_EQ(points[1].count("data-best"), 1u);
  EXPECT_EQ(points[0].count("data-best"), 0u);
  // Each point is painted by its outcome.
  EXPECT_NE(svg.find("<circle class=\"outcome-positive\""), std::string::npos);
  EXPECT_NE(svg.find("<circle class=\"outcome-neutral\""), std::string::npos);
}

TEST(MedianChart, AnIterationWithoutAMedianIsAMarkedGapNotAZero) {
  const std::string svg = median_chart_svg(four_iterations());
  const auto missing = elements_with_class(svg, "g", "iteration-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].at("data-iteration"), "2");
  EXPECT_EQ(missing[0].at("data-outcome"), "rejected");
  EXPECT_EQ(missing[0].count("data-median-ms"), 0u);
  EXPECT_EQ(svg.find("data-median-ms=\"0\""), std::string::npos);
  // Its reason, escaped, is the gap's tooltip.
  EXPECT_NE(svg.find("validation failed: &lt;wrong&gt; &amp; &quot;bad&quot;"), std::string::npos);
  EXPECT_EQ(svg.find("<wrong>"), std::string::npos);
}

TEST(MedianChart, TheLegendNamesEveryOutcomeOfTheRun) {
  const auto entries = elements_with_class(median_chart_svg(four_iterations()), "g", "legend-entry");
  std::vector<std::string> outcomes;
  for (const auto& e : entries) outcomes.push_back(e.at("data-outcome"));
  EXPECT_EQ(outcomes, (std::vector<std::string>{"baseline", "positive", "neutral", "rejected", "none", "best"}));
}

// A tenth of the span below the fastest would be negative here: the axis stops at zero.
TEST(MedianChart, TheAxisNeverGoesBelowZero) {
  loop::run_manifest m;
  m.iterations = {timed(0, loop::version_outcome::baseline, 0.015),
                  timed(1, loop::version_outcome::positive, 0.001)};
  const std::string svg = median_chart_svg(m);
  ASSERT_EQ(elements_with_class(svg, "g", "iteration-point").size(), 2u);
  ASSERT_FALSE(elements_with_class(svg, "text", "tick").empty());
  EXPECT_EQ(svg.find("\">-"), std::string::npos) << "a negative tick label";
  EXPECT_NE(svg.find("\">0</text>"), std::string::npos) << "no tick at zero";
}

// A run that goes from 0.36 ms to 0.008 ms (the H200 softmax run): on a linear axis every later
// version would sit on the zero line; the axis is logarithmic, in decades.
TEST(MedianChart, MediansSpanningMoreThanTwentyfoldGetALogarithmicAxis) {
  loop::run_manifest m;
  m.iterations = {timed(0, loop::version_outcome::baseline, 0.356),
                  timed(1, loop::version_outcome::positive, 0.00995),
                  timed(2, loop::version_outcome::positive, 0.00822)};
  const std::string svg = median_chart_svg(m);
  EXPECT_NE(svg.find("\">0.01</text>"), std::string::npos) << "no decade tick";
  EXPECT_NE(svg.find("\">0.1</text>"), std::string::npos) << "no decade tick";
  EXPECT_EQ(svg.find("\">0.2</text>"), std::string::npos) << "a linear tick";
  const auto points = elements_with_class(svg, "circle", "outcome-positive");
  ASSERT_EQ(points.size(), 3u);  // the legend's, then v1's and v2's
  EXPECT_GT(number_attribute(points[2], "cy") - number_attribute(points[1], "cy"), 10.0)
      << "v1 and v2 must be told apart";
}

analyze::kernel_diagnosis launch_at(double intensity, double flop_per_s, const std::string& name) {
  analyze::kernel_diagnosis k;
  k.kernel_name = name;
  k.verdict.cls = analyze::bottleneck::dram;
  k.roof.arithmetic_intensity = intensity;
  k.roof.scalar_flop_per_s = flop_per_s;
  k.roof.dram_bytes = 1e6;
  return k;
}

run_report profiled_run() {
  run_report r;
  r.manifest = four_iterations();
  r.diagnoses.push_back({0, 1, launch_at(0.25, 1e12, "softmax_naive(float const*, float*, int)")});
  r.diagnoses.push_back({1, 2, launch_at(0.5, 3e12, "softmax<float, 256><script>alert(1)</script>")});
  r.diagnoses.push_back({3, 1, launch_at(0.5, 2.9e12, "softmax_shuffle")});
  // Peaks as an H200 report recorded them at its clocks (not a table of GPUs).
  analyze::roofline& best = r.diagnoses[1].launch.roof;
  best.peak_dram_bytes_per_s = 4.6e12;
  best.peak_fp32_flop_per_s = 6.1e13;
  best.peak_tensor_flop_per_s = 9.3e14;
  best.tensor_type = "hgmma_src_bf16_dst_fp32_sparsity_off";
  r.diagnoses[2].launch.roof.peak_dram_bytes_per_s = 1.0e12;  // another iteration's peaks are not used
  r.diagnoses[2].launch.roof.peak_fp32_flop_per_s = 1.0e13;
  return r;
}

TEST(RooflineChart, OnePointPerProfiledIterationUnderTheAnalysisRoofs) {
  const run_report r = profiled_run();
  const std::string svg = roofline_chart_svg(r);
  const auto points = elements_with_class(svg, "g", "roofline-point");
  ASSERT_EQ(points.size(), 3u);
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].at("data-iteration"), std::to_string(r.diagnoses[i].iteration));
    EXPECT_EQ(number_attribute(points[i], "data-arithmetic-intensity"), *r.diagnoses[i].launch.roof.arithmetic_intensity);
    EXPECT_EQ(number_attribute(points[i], "data-flop-per-s"), *r.diagnoses[i].launch.roof.scalar_flop_per_s);
  }
  EXPECT_EQ(points[1].at("data-outcome"), "positive");
  const auto roofs = elements_with_class(svg, "g", "roof");
  ASSERT_EQ(roofs.size(), 3u);
  EXPECT_EQ(roofs[0].at("data-roof"), "memory");
  EXPECT_EQ(number_attribute(roofs[0], "data-bytes-per-s"), 4.6e12);  // the best version's (v1), not v3's
  EXPECT_EQ(roofs[1].at("data-roof"), "fp32");
  EXPECT_EQ(number_attribute(roofs[1], "data-flop-per-s"), 6.1e13);
  EXPECT_EQ(roofs[2].at("data-roof"), "tensor");
  EXPECT_EQ(number_attribute(roofs[2], "data-flop-per-s"), 9.3e14);
  EXPECT_EQ(roofs_iteration(r), 1);
}

TEST(RooflineChart, KernelNamesAreEscapedAndAnUnplacedIterationIsNamed) {
  run_report r = profiled_run();
  r.diagnoses[2].launch.roof.arithmetic_intensity.reset();  // a kernel with no FLOPs counted
  r.diagnoses[2].launch.roof.scalar_flop_per_s.reset();
  const std::string svg = roofline_chart_svg(r);
  EXPECT_EQ(elements_with_class(svg, "g", "roofline-point").size(), 2u);
  const auto missing = elements_with_class(svg, "g", "roofline-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].at("data-iteration"), "3");
  EXPECT_EQ(missing[0].at("data-why"), "no floating-point work counted");
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(svg.find("softmax&lt;float, 256&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

TEST(RooflineChart, WithoutRecordedPeaksNoRoofIsDrawn) {
  run_report r = profiled_run();
  for (auto& d : r.diagnoses) d.launch.roof = launch_at(0.3, 1e12, "k").roof;
  const std::string svg = roofline_chart_svg(r);
  EXPECT_EQ(elements_with_class(svg, "g", "roof").size(), 0u);
  EXPECT_EQ(elements_with_class(svg, "g", "roofline-point").size(), 3u);
  EXPECT_FALSE(roofs_iteration(r).has_value());
}

TEST(HtmlText, EscapesEverythingThatCouldOpenATagOrCloseAnAttribute) {
  EXPECT_EQ(escape_html("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(escape_html("plain text"), "plain text");
}

TEST(HtmlText, NumbersReadBackExactlyAndReadWellForPeople) {
  for (const double v : {0.1, 0.0834512, 1.0 / 3.0, 4.8e12, 123456789.0}) {
    EXPECT_EQ(std::stod(exact_number(v)), v);
  }
  EXPECT_EQ(si_number(4.8e12), "4.8 T");
  EXPECT_EQ(si_number(999.6), "1 k");
  EXPECT_EQ(si_number(0.25), "250 m");
  EXPECT_EQ(short_number(std::nullopt), "n/a");
}

TEST(SvgAxes, TicksAreNiceStepsOrDecades) {
  const axis_scale linear{0, 1, false};
  const std::vector<double> ticks = linear.ticks();
  ASSERT_EQ(ticks.size(), 6u);
  for (std::size_t i = 0; i < ticks.size(); ++i) EXPECT_NEAR(ticks[i], 0.2 * static_cast<double>(i), 1e-12);
  const axis_scale whole{-0.5, 1.5, false, 1};
  EXPECT_EQ(whole.ticks(), (std::vector<double>{0, 1}));
  const axis_scale decades{0.01, 1000, true};
  EXPECT_EQ(decades.ticks().size(), 6u);
  EXPECT_DOUBLE_EQ(decades.fraction(1), 0.4);
}

}  // namespace
}  // namespace kopt::report
