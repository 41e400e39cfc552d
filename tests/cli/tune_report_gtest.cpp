// kopt report on a tune folder, through the real commands with a recorded worker: the page has
// one convergence chart per shape, a point per configuration evaluated (a failed one as a cross,
// never as a time) and the best-so-far line ending at the winner's median; --json gives the
// tune result back.
#include <algorithm>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "cli/recorded_command_run.h"
#include "core/files.h"
#include "support/recorded_h200.h"
#include "support/recorded_tune.h"
#include "tune/tune_result.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;
using TuneReport = recorded_command_test;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_F(TuneReport, ThePageDrawsEveryEvaluationAndTheBestSoFarPerShape) {
  pipeline::recorded_worker worker(pipeline::recorded_h200(),
                                   pipeline::by_configuration({{"BLOCK=64 VEC=1", 10.0},
                                                               {"BLOCK=64 VEC=2", 16.0},
                                                               {"BLOCK=128 VEC=1", 20.0},
                                                               {"BLOCK=128 VEC=2", 15.0},
                                                               {"BLOCK=256 VEC=1", 21.0}}));
  pipeline::time_turns(worker, "none");
  const fs::path kernel = m_out.write("tiled_add.cu", pipeline::tunable_vector_add(example("vector_add.cu")));
  const testing::captured_run tuned =
      run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--out",
           (m_out.path() / "runs").string(), "--check-dims", "--N=4096", "--compare-seconds", "1", "--json"},
          worker);
  ASSERT_EQ(tuned.status, 0) << tuned.err;
  const tune::tune_result result = tune::read_tune_result(json::parse(tuned.out), "--json");
  const fs::path run_dir = result.run_dir;

  const testing::captured_run report = run({"report", run_dir.string()}, worker);
  ASSERT_EQ(report.status, 0) << report.err;
  EXPECT_NE(report.out.find("wrote " + (run_dir / "report.html").string()), std::string::npos) << report.out;
  const std::string page = read_text_file(run_dir / "report.html", "page");
  EXPECT_EQ(count(page, "class=\"convergence-chart\""), 2U) << "the dimensions given and the extra shape";
  EXPECT_EQ(count(page, "<g class=\"evaluation\""),
            result.measured.size() + result.shapes[0].measured.size());
  EXPECT_EQ(count(page, "data-status=\"failed\""), 2U) << "BLOCK=64 VEC=1 is wrong at both shapes";
  EXPECT_EQ(page.find("data-status=\"failed\" data-median-ms"), std::string::npos) << "a failure has no time";
  double best = 1e9;
  for (const tune::measured_configuration& m : result.measured) {
    if (m.passed()) best = std::min(best, *m.median_ms);
  }
  const std::size_t line = page.find("class=\"best-so-far\" data-best-ms=\"");
  ASSERT_NE(line, std::string::npos);
  EXPECT_NEAR(std::stod(page.substr(line + 34)), best, 1e-12);
  EXPECT_NEAR(best, result.winner->median_ms, 1e-12) << "no comparison overturned the fastest median here";
  EXPECT_EQ(page.find("http"), std::string::npos) << "self-contained";

  const testing::captured_run as_json = run({"report", run_dir.string(), "--json"}, worker);
  ASSERT_EQ(as_json.status, 0) << as_json.err;
  EXPECT_EQ(tune::read_tune_result(json::parse(as_json.out), "--json").measured.size(),
            result.measured.size());
}

}  // namespace
}  // namespace kopt::cli
