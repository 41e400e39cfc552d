// Whole-program tests of `kopt report` on the fixture run: the terminal summary, --quiet,
// --json, where the page goes, one-line errors for folders that are not runs; then the page
// rendered by headless Chromium: its DOM holds every chart point with its data, nothing is
// fetched, and a screenshot is kept in the build folder (tests/artifacts/report.png).
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/document.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "loop/run_manifest.h"
#include "page_elements.h"
#include "scripted_run.h"
#include "support/kopt_process.h"

namespace kopt::report {
namespace {

namespace fs = std::filesystem;
using kopt::testing::first_line;
using kopt::testing::run_kopt;
using kopt::testing::scratch_dir;
using testing::elements_with_class;
using testing::fixture_run_dir;
using testing::number_attribute;

// The page is written into the run folder: the tests work on a copy.
fs::path copy_of_fixture(const scratch_dir& dir) {
  const fs::path copy = dir.path() / fixture_run_dir().filename();
  fs::copy(fixture_run_dir(), copy, fs::copy_options::recursive);
  fs::remove(copy / "report.html");
  return copy;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

TEST(ReportCommand, PrintsAShortSummaryAndWritesThePageIntoTheRunFolder) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture(dir);
  const auto r = run_kopt({"report", run.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto lines = lines_of(r.stdout_text);
  ASSERT_EQ(lines.size(), 8u) << r.stdout_text;
  EXPECT_EQ(lines[0], run.filename().string() + ": softmax.cu (cuda, sm_90a), 4 iteration(s)");
  EXPECT_EQ(lines[1].rfind("  v0   baseline     0.1 ms [", 0), 0u) << lines[1];
  EXPECT_EQ(lines[3].rfind("  v2   rejected     no median", 0), 0u) << lines[3];
  EXPECT_EQ(lines[5].rfind("best: v1 at 0.06 ms, 1.67x v0", 0), 0u) << lines[5];
  EXPECT_EQ(lines[6].rfind("memory: not read: strategy memory ", 0), 0u) << lines[6];
  EXPECT_EQ(lines[7], "wrote " + (run / "report.html").string());
  EXPECT_EQ(r.stdout_text.find("\033["), std::string::npos) << "colour into a pipe";
  EXPECT_TRUE(fs::exists(run / "report.html"));
}

// The note on a memory it cannot read names --memory-db, which kopt report takes: the memory
// it names is read instead of the manifest's.
TEST(ReportCommand, TheMemoryItsNoteNamesCanBeGivenWithMemoryDb) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture(dir);
  const auto missing = run_kopt({"report", run.string()});
  ASSERT_EQ(missing.exit_code, 0) << missing.stderr_text;
  EXPECT_NE(missing.stdout_text.find("--memory-db names another"), std::string::npos) << missing.stdout_text;
  const fs::path db = dir.path() / "memory.db";
  ASSERT_EQ(run_kopt({"memory", "list", "--memory-db", db.string()}).exit_code, 0);
  ASSERT_TRUE(fs::exists(db));
  const auto given = run_kopt({"report", run.string(), "--memory-db", db.string()});
  ASSERT_EQ(given.exit_code, 0) << given.stderr_text;
  EXPECT_NE(given.stdout_text.find("memory: " + db.string() + " (read only)"), std::string::npos) << given.stdout_text;
  const auto json = nlohmann::json::parse(run_kopt({"report", run.string(), "--memory-db", db.string(), "--json"}).stdout_text);
  EXPECT_EQ(json["memory"]["database"], db.string()) << json["memory"].dump();
}

TEST(ReportCommand, QuietPrintsOnlyTheResultAndVerboseTheDetails) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture(dir);
  const auto quiet = run_kopt({"report", run.string(), "--quiet"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.stderr_text;
  EXPECT_EQ(quiet.stdout_text, "wrote " + (run / "report.html").string() + "\n");
  const auto verbose = run_kopt({"report", run.string(), "--verbose"});
  ASSERT_EQ(verbose.exit_code, 0) << verbose.stderr_text;
  EXPECT_NE(verbose.stdout_text.find("        tags block_per_row, shared_memory_reduction: "), std::string::npos)
      << verbose.stdout_text;
  EXPECT_NE(verbose.stdout_text.find("diagnosis of v1: "), std::string::npos) << verbose.stdout_text;
  EXPECT_NE(verbose.stdout_text.find("  try: "), std::string::npos) << verbose.stdout_text;
}

TEST(ReportCommand, JsonPrintsTheVersionedDocument) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture(dir);
  const auto r = run_kopt({"report", run.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["schema"], "kopt.report/v1");
  EXPECT_EQ(doc["run_dir"], run.string());
  EXPECT_EQ(doc["manifest"]["iterations"].size(), 4u);
  EXPECT_EQ(doc["diagnoses"].size(), 2u);
  EXPECT_TRUE(fs::exists(run / "report.html"));
}

TEST(ReportCommand, ThePageGoesWhereHtmlOrOutSaysWithLinksBackIntoTheRun) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture(dir);
  fs::create_directories(dir.path() / "pages");
  const fs::path page = dir.path() / "pages" / "run.html";
  ASSERT_EQ(run_kopt({"report", run.string(), "--html", page.string(), "--quiet"}).exit_code, 0);
  ASSERT_TRUE(fs::exists(page));
  EXPECT_FALSE(fs::exists(run / "report.html"));
  const std::string html = read_text_file(page);
  EXPECT_NE(html.find("href=\"../" + run.filename().string() + "/iter_v1/analysis.md\""), std::string::npos);

  const auto out = run_kopt({"report", run.string(), "--out", (dir.path() / "pages").string(), "--quiet"});
  ASSERT_EQ(out.exit_code, 0) << out.stderr_text;
  EXPECT_TRUE(fs::exists(dir.path() / "pages" / "report.html"));
  const auto both = run_kopt({"report", run.string(), "--out", dir.path().string(), "--html", page.string()});
  EXPECT_EQ(both.exit_code, 2);
}

TEST(ReportCommand, BadInputGetsOneLineThatSaysWhatToDo) {
  scratch_dir dir;
  auto r = run_kopt({"report", dir.path().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: " + dir.path().string() + " is not a kopt loop run", 0), 0u)
      << r.stderr_text;
  r = run_kopt({"report", dir.path().string(), "--json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(r.stdout_text)["schema"], "kopt.error/v1");

  const fs::path run = copy_of_fixture(dir);
  std::string manifest = read_text_file(run / "run_manifest.json");
  manifest.replace(manifest.find("\"max_iterations\": 3"), 19, "\"max_iterations\": 9");
  write_file_atomic(run / "run_manifest.json", manifest);
  r = run_kopt({"report", run.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("was changed outside kopt"), std::string::npos) << r.stderr_text;

  const fs::path second = dir.path() / "second";
  fs::copy(fixture_run_dir(), second, fs::copy_options::recursive);
  fs::remove(second / "iter_v1" / "analysis.json");
  r = run_kopt({"report", second.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("iter_v1/analysis.json is missing"), std::string::npos)
      << r.stderr_text;
  EXPECT_EQ(lines_of(r.stderr_text).size(), 1u) << r.stderr_text;
}

// Headless Chromium must be there: CI installs it with scripts/setup.sh, so its absence is a
// failure, never a skip.
fs::path chromium() {
  if (const char* named = std::getenv("KOPT_CHROMIUM"); named != nullptr && *named != '\0') return named;
  for (const char* name : {"chromium", "chromium-browser"}) {
    if (const auto found = find_executable(name)) return *found;
  }
  return {};
}

process_result run_chromium(const fs::path& profile, const std::vector<std::string>& args) {
  process_request request;
  request.argv = {chromium().string(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--no-first-run", "--disable-extensions", "--disable-background-networking",
                  // Nothing may be fetched: every host name resolves to nowhere.
                  "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + profile.string()};
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.timeout = std::chrono::seconds(120);
  return run_process(request);
}

// What Chromium rendered of a run's page, counted.
struct rendered_page {
  std::size_t points = 0;    // iterations drawn with their median and interval
  std::size_t missing = 0;   // iterations drawn as a marked gap (no median)
  std::size_t roofline = 0;  // roofline points
};

// Writes `run`'s page, renders it in headless Chromium and checks the DOM against the run's
// manifest: every timed iteration a point with its median, interval and outcome, every other a
// gap, a roofline point for every profiled iteration, nothing fetched, every link relative.
// The screenshot goes to the build folder's tests/artifacts/`screenshot`.
void render_and_check(const scratch_dir& dir, const fs::path& run, const std::string& screenshot, rendered_page& seen) {
  ASSERT_FALSE(chromium().empty()) << "chromium is not installed: scripts/setup.sh installs it (apt package chromium)";
  ASSERT_EQ(run_kopt({"report", run.string(), "--quiet"}).exit_code, 0);
  const std::string url = "file://" + (run / "report.html").string();

  const process_result dom = run_chromium(dir.path() / "profile", {"--dump-dom", url});
  ASSERT_TRUE(dom.succeeded()) << dom.describe_end() << "\n" << dom.stderr_text;
  const std::string& html = dom.stdout_text;
  ASSERT_NE(html.find("<svg class=\"median-chart\""), std::string::npos) << html.substr(0, 2000);
  EXPECT_EQ(html.find("http:"), std::string::npos);
  EXPECT_EQ(html.find("https:"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);

  const loop::run_manifest m = loop::read_run_manifest(run);
  const auto points = elements_with_class(html, "g", "iteration-point");
  const auto missing = elements_with_class(html, "g", "iteration-missing");
  std::size_t timed = 0;
  for (const auto& r : m.iterations) timed += r.median_ms ? 1 : 0;
  ASSERT_EQ(points.size(), timed);
  ASSERT_EQ(points.size() + missing.size(), m.iterations.size());
  for (const auto& r : m.iterations) {
    const std::string k = std::to_string(r.iteration);
    const auto matching = [&](const auto& list) {
      return std::count_if(list.begin(), list.end(), [&](const auto& p) { return p.at("data-iteration") == k; });
    };
    if (!r.median_ms) {
      EXPECT_EQ(matching(missing), 1) << "v" << k;
      continue;
    }
    ASSERT_EQ(matching(points), 1) << "v" << k;
    const auto& p = *std::find_if(points.begin(), points.end(), [&](const auto& q) { return q.at("data-iteration") == k; });
    EXPECT_EQ(number_attribute(p, "data-median-ms"), *r.median_ms);
    EXPECT_EQ(number_attribute(p, "data-ci-low"), r.median_ci95_ms[0].get<double>());
    EXPECT_EQ(number_attribute(p, "data-ci-high"), r.median_ci95_ms[1].get<double>());
    EXPECT_EQ(p.at("data-outcome"), enum_name(r.outcome));
  }
  std::size_t profiled = 0;
  for (const auto& r : m.iterations) profiled += r.bottleneck.empty() ? 0 : 1;
  const auto roofline = elements_with_class(html, "g", "roofline-point");
  ASSERT_EQ(roofline.size(), profiled);
  for (const auto& p : roofline) {
    EXPECT_FALSE(m.find(std::stoll(p.at("data-iteration")))->bottleneck.empty());
    EXPECT_GT(number_attribute(p, "data-arithmetic-intensity"), 0);
    EXPECT_GT(number_attribute(p, "data-flop-per-s"), 0);
  }
  // Every link stays inside the run folder: a relative path, no scheme.
  std::size_t hrefs = 0;
  for (auto at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1)) {
    ++hrefs;
    EXPECT_EQ(html.compare(at + 6, 2, "./"), 0) << html.substr(at, 80);
  }
  EXPECT_GE(hrefs, m.iterations.size());

  const fs::path artefacts = fs::path(KOPT_TEST_ARTIFACT_DIR);
  fs::create_directories(artefacts);
  const fs::path png = artefacts / screenshot;
  fs::remove(png);
  const process_result shot =
      run_chromium(dir.path() / "profile", {"--screenshot=" + png.string(), "--window-size=1280,2000", url});
  ASSERT_TRUE(shot.succeeded()) << shot.describe_end() << "\n" << shot.stderr_text;
  ASSERT_TRUE(fs::exists(png)) << shot.stderr_text;
  const std::string bytes = read_text_file(png);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(bytes.size(), 50'000u) << "a page of tables and charts, not a blank screenshot";
  seen = {points.size(), missing.size(), roofline.size()};
}

TEST(ReportCommand, HeadlessChromiumRendersEveryPointAndFetchesNothing) {
  scratch_dir dir;
  rendered_page seen;
  render_and_check(dir, copy_of_fixture(dir), "report.png", seen);
  // The scripted run: v2 rejected (a gap), v0, v1 and v3 timed, v0 and v1 (the best) profiled.
  EXPECT_EQ(seen.points, 3u);
  EXPECT_EQ(seen.missing, 1u);
  EXPECT_EQ(seen.roofline, 2u);
}

// A real run of kopt loop on the H200 (scripts/record_loop_run.sh; its .ncu-rep files left out):
// softmax from one thread per row to one block per row to float4 loads.
TEST(ReportCommand, TheRealH200RunRendersWithItsCharts) {
  scratch_dir dir;
  const fs::path run = dir.path() / "h200_softmax_run";
  fs::copy(fs::path(KOPT_TEST_DATA_DIR) / "report" / "h200_softmax_run", run, fs::copy_options::recursive);
  rendered_page seen;
  render_and_check(dir, run, "report_h200.png", seen);
  EXPECT_EQ(seen.points, 3u);
  EXPECT_EQ(seen.missing, 0u);
  EXPECT_EQ(seen.roofline, 3u);
}

}  // namespace
}  // namespace kopt::report
