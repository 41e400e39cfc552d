// report.html and the report's JSON from the fixture run: a self-contained page (no script, no
// URL, nothing fetched), every iteration in the table and on the charts, the best version's
// diagnosis, the memory's conclusions, and everything read from files escaped.
#include "report/html_page.h"

#include <regex>

#include <gtest/gtest.h>

#include "page_elements.h"
#include "report/report_json.h"
#include "report/run_report.h"
#include "scripted_run.h"

namespace kopt::report {
namespace {

using testing::elements_with_class;
using testing::fixture_run_dir;
using testing::number_attribute;

std::string page_of(const run_report& r) { return report_html(r, {".", "2026-12-02T00:00:00Z", "0.0.0-test"}); }

// Anything that would make the browser fetch or run something.
void expect_self_contained(const std::string& html) {
  EXPECT_EQ(html.find("http:"), std::string::npos);
  EXPECT_EQ(html.find("https:"), std::string::npos);
  // A protocol-relative address can only be fetched from an attribute (text, such as a diff of a
  // kernel's comments, holds "//" harmlessly).
  EXPECT_FALSE(std::regex_search(html, std::regex("=\\s*[\"'][^\"'>]*//"))) << "a protocol-relative address";
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<iframe"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("@font-face"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
}

TEST(HtmlPage, TheFixturePageIsSelfContainedAndShowsEveryIteration) {
  const run_report r = gather_run_report(fixture_run_dir());
  const std::string html = page_of(r);
  expect_self_contained(html);

  const auto rows = elements_with_class(html, "tr", "iteration-row");
  const auto best_rows = elements_with_class(html, "tr", "iteration-row best");
  ASSERT_EQ(rows.size() + best_rows.size(), r.manifest.iterations.size());
  ASSERT_EQ(best_rows.size(), 1u);
  EXPECT_EQ(best_rows[0].at("data-iteration"), "1");

  std::size_t timed = 0;
  for (const auto& it : r.manifest.iterations) timed += it.median_ms ? 1 : 0;
  const auto points = elements_with_class(html, "g", "iteration-point");
  ASSERT_EQ(points.size(), timed);
  ASSERT_EQ(timed, 3u);
  for (const auto& p : points) {
    const loop::iteration_record* rec = r.manifest.find(std::stoll(p.at("data-iteration")));
    ASSERT_NE(rec, nullptr);
    EXPECT_EQ(number_attribute(p, "data-median-ms"), *rec->median_ms);
    EXPECT_EQ(number_attribute(p, "data-ci-low"), rec->median_ci95_ms[0].get<double>());
    EXPECT_EQ(number_attribute(p, "data-ci-high"), rec->median_ci95_ms[1].get<double>());
  }
  const auto missing = elements_with_class(html, "g", "iteration-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].at("data-iteration"), "2");
  const auto roofline_points = elements_with_class(html, "g", "roofline-point");
  ASSERT_EQ(roofline_points.size(), r.diagnoses.size());
  ASSERT_EQ(roofline_points.size(), 2u);  // v0 and v1: v2 failed, v3 was slower
  // Roofs from the best version's analysis, as its report recorded them.
  const auto roofs = elements_with_class(html, "g", "roof");
  ASSERT_FALSE(roofs.empty());
  EXPECT_EQ(number_attribute(roofs[0], "data-bytes-per-s"), *r.best_diagnosis()->launch.roof.peak_dram_bytes_per_s);
}

// Each version with its registers, shared memory, occupancy and diagnosis, and what it changed
// from its parent as a unified diff.
TEST(HtmlPage, EachVersionShowsItsResourcesAndWhatItChangedFromItsParent) {
  const run_report r = gather_run_report(fixture_run_dir());
  const std::string html = page_of(r);
  EXPECT_NE(html.find("<h3 data-iteration=\"1\">v1 (from v0): "), std::string::npos);
  EXPECT_NE(html.find("registers per thread"), std::string::npos);
  EXPECT_NE(html.find("theoretical"), std::string::npos);
  const std::size_t diff = html.find("<summary>what changed from v0</summary><pre class=\"diff\">--- v0/softmax_v0.cu\n+++ "
                                     "v1/softmax_v1.cu\n");
  EXPECT_NE(diff, std::string::npos);
  ASSERT_EQ(r.changes.size(), r.manifest.iterations.size());
  EXPECT_EQ(r.changes[0].note, "the baseline: nothing to compare it with");
  EXPECT_NE(r.changes[1].diff.find("\n@@ "), std::string::npos) << r.changes[1].diff;
  const json document = to_json(r);
  EXPECT_EQ(document["changes"][1]["parent"], 0);
  EXPECT_TRUE(document["diagnoses"][0]["resources"]["registers_per_thread"].is_number());
}

TEST(HtmlPage, TheBestVersionsDiagnosisAndTheMemorysConclusionsAreShown) {
  const run_report r = gather_run_report(fixture_run_dir());
  const std::string html = page_of(r);
  const analyze::kernel_diagnosis& best = r.best_diagnosis()->launch;
  const auto head = elements_with_class(html, "p", "diagnosis-head");
  ASSERT_EQ(head.size(), 1u);
  EXPECT_EQ(head[0].at("data-iteration"), "1");
  EXPECT_NE(html.find("<strong class=\"class\">" + std::string(analyze::to_string(best.verdict.cls)) + "</strong>"),
            std::string::npos);
  ASSERT_FALSE(best.recommendations.empty());
  EXPECT_NE(html.find(best.recommendations[0].id), std::string::npos);
  ASSERT_FALSE(best.verdict.numbers.empty());
  EXPECT_NE(html.find(best.verdict.numbers[0].name), std::string::npos);
  // v1's profile had no source counters; v0's had: as the best, its lines are shown.
  EXPECT_TRUE(best.hottest_source_lines.empty());
  EXPECT_NE(html.find("No hottest source lines"), std::string::npos);
  run_report v0_best = r;
  v0_best.manifest.best = 0;
  const auto& lines = v0_best.best_diagnosis()->launch.hottest_source_lines;
  ASSERT_EQ(lines.size(), 5u);
  const auto rows = elements_with_class(page_of(v0_best), "tr", "hot-line");
  ASSERT_EQ(rows.size(), 5u);
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i].at("data-line"), std::to_string(lines[i].line));
  // Every strategy of the run, and why the memory was not read.
  EXPECT_EQ(elements_with_class(html, "tr", "strategy").size(), r.strategies.size());
  EXPECT_NE(html.find("The strategy memory was not read: strategy memory"), std::string::npos);
  EXPECT_NE(html.find("does not exist"), std::string::npos);
}

TEST(HtmlPage, TextFromTheRunsFilesIsEscapedEverywhere) {
  run_report r = gather_run_report(fixture_run_dir());
  const std::string evil = "<script>alert('x')</script> & \"quoted\"";
  r.manifest.kernel = "/tmp/" + evil + ".cu";
  r.manifest.iterations[2].reason = evil;
  r.manifest.iterations[3].tags = {evil};
  r.diagnoses[1].launch.kernel_name = evil;
  r.diagnoses[1].launch.verdict.reason = evil;
  if (!r.diagnoses[1].launch.hottest_source_lines.empty()) r.diagnoses[1].launch.hottest_source_lines[0].text = evil;
  r.memory.note = evil;
  const std::string html = page_of(r);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(evil), std::string::npos);
  const std::string escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;";
  std::size_t count = 0;
  for (auto at = html.find(escaped); at != std::string::npos; at = html.find(escaped, at + 1)) ++count;
  EXPECT_GE(count, 7u) << "kernel, reason (table and chart), tags, kernel name (diagnosis and roofline), verdict, "
                          "memory note";
}

TEST(ReportJson, TheDocumentHasItsSchemaTheManifestAndEveryDiagnosis) {
  const run_report r = gather_run_report(fixture_run_dir());
  const json document = to_json(r);
  EXPECT_EQ(document["schema"], "kopt.report/v1");
  EXPECT_EQ(document["manifest"]["run_id"], r.manifest.run_id);
  ASSERT_EQ(document["manifest"]["iterations"].size(), 4u);
  ASSERT_EQ(document["diagnoses"].size(), 2u);
  EXPECT_EQ(document["diagnoses"][1]["iteration"], 1);
  EXPECT_EQ(document["diagnoses"][1]["class"], r.manifest.find(1)->bottleneck);
  EXPECT_TRUE(document["diagnoses"][1]["roofline"]["arithmetic_intensity_flop_per_byte"].is_number());
  EXPECT_EQ(document["best_diagnosis"], 1);
  EXPECT_EQ(document["roofs"]["from_iteration"], 1);
  ASSERT_EQ(document["strategies"].size(), 4u);
  EXPECT_EQ(document["strategies"][2]["outcomes"], json::array({"rejected"}));
  EXPECT_EQ(document["memory"]["read"], false);
}

}  // namespace
}  // namespace kopt::report
