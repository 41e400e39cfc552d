// Gathering a run's report: the manifest as the loop committed it, one diagnosis per profiled
// iteration (the launch whose class the manifest recorded), the run's strategies with the
// memory's history when it can be read, and a one-line error for every folder that is not a
// run kopt wrote.
#include "report/run_report.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "core/document.h"

#include "core/error.h"
#include "core/files.h"
#include "loop/run_directory.h"
#include "memory/memory_store.h"
#include "memory/strategy_fingerprint.h"
#include "scripted_run.h"
#include "support/kopt_process.h"

namespace kopt::report {
namespace {

namespace fs = std::filesystem;
using kopt::testing::scratch_dir;
using testing::fixture_run_dir;

// A copy of the fixture that a test may change.
fs::path copy_of_fixture(const scratch_dir& dir) {
  const fs::path copy = dir.path() / fixture_run_dir().filename();
  fs::copy(fixture_run_dir(), copy, fs::copy_options::recursive);
  return copy;
}

std::string headline_of(const fs::path& run_dir) {
  try {
    gather_run_report(run_dir);
  } catch (const error& e) {
    return e.headline();
  }
  return "(no error)";
}

TEST(RunReport, TheFixtureRunIsReadWithEveryProfiledIterationDiagnosed) {
  const run_report r = gather_run_report(fixture_run_dir());
  const loop::run_manifest& m = r.manifest;
  ASSERT_EQ(m.iterations.size(), 4u);
  EXPECT_EQ(enum_name(m.iterations[0].outcome), "baseline");
  EXPECT_EQ(enum_name(m.iterations[1].outcome), "positive");
  EXPECT_EQ(enum_name(m.iterations[2].outcome), "rejected");
  EXPECT_FALSE(m.iterations[2].median_ms.has_value());
  EXPECT_EQ(enum_name(m.iterations[3].outcome), "negative");
  EXPECT_EQ(m.best, 1);

  // v2 was rejected before profiling and v3, slower than v1, was not profiled: two diagnoses,
  // each the class the manifest recorded.
  ASSERT_EQ(r.diagnoses.size(), 2u);
  const std::vector<std::int64_t> profiled = {0, 1};
  for (std::size_t i = 0; i < profiled.size(); ++i) {
    const iteration_diagnosis& d = r.diagnoses[i];
    EXPECT_EQ(d.iteration, profiled[i]);
    EXPECT_EQ(std::string(analyze::to_string(d.launch.verdict.cls)), m.find(d.iteration)->bottleneck);
    EXPECT_GE(d.launches, 1u);
    EXPECT_TRUE(d.launch.roof.arithmetic_intensity.has_value()) << "v" << d.iteration;
  }
  ASSERT_NE(r.best_diagnosis(), nullptr);
  EXPECT_EQ(r.best_diagnosis()->iteration, 1);
  EXPECT_EQ(r.diagnosis_of(2), nullptr);
  EXPECT_EQ(r.diagnosis_of(3), nullptr);
  EXPECT_TRUE(m.iterations[3].bottleneck.empty());
}

TEST(RunReport, TheRunsStrategiesCarryTheirOutcomesAndAMissingMemoryIsSaidNotFatal) {
  const run_report r = gather_run_report(fixture_run_dir());
  ASSERT_EQ(r.strategies.size(), 4u);  // baseline and the three the agent named
  EXPECT_EQ(r.strategies[0].tags, std::vector<std::string>{"baseline"});
  EXPECT_EQ(r.strategies[1].tags, (std::vector<std::string>{"block_per_row", "shared_memory_reduction"}));
  EXPECT_EQ(r.strategies[1].outcomes, std::vector<std::string>{"positive"});
  EXPECT_FALSE(r.strategies[1].blocked);
  EXPECT_EQ(r.strategies[2].outcomes, std::vector<std::string>{"rejected"});
  EXPECT_TRUE(r.strategies[2].blocked);
  EXPECT_EQ(r.strategies[3].iterations, std::vector<std::int64_t>{3});
  EXPECT_TRUE(r.strategies[3].blocked);
  // The memory the fixture's run used lived in a scratch folder that is gone.
  EXPECT_FALSE(r.memory.read);
  EXPECT_NE(r.memory.note.find("does not exist"), std::string::npos) << r.memory.note;
  for (const auto& s : r.strategies) EXPECT_FALSE(s.history.has_value());
}

TEST(RunReport, AReadableMemoryGivesEachStrategyItsHistoryAndIsLeftUnchanged) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture(dir);
  const fs::path db = dir.path() / "memory.db";
  loop::run_manifest m = loop::read_run_manifest(run);
  {
    memory::memory_store store = memory::memory_store::open(db);
    memory::recorded_outcome o;
    o.run_id = "an-earlier-run";
    o.iteration = 4;
    o.tags = {"warp_shuffle_reduction"};
    o.scope = {"cuda", "sm_90a", "softmax", "", "--rows=4096 --cols=1024", "latency"};
    o.outcome = "positive";
    o.reason = "faster elsewhere";
    store.record(o);
  }
  const auto size_before = fs::file_size(db);
  m.memory_db = db.string();
  loop::write_run_manifest(run, m);  // the loop's own writer: the checksum stays valid

  const run_report r = gather_run_report(run);
  EXPECT_TRUE(r.memory.read) << r.memory.note;
  ASSERT_EQ(r.strategies.size(), 4u);
  const strategy_conclusion& shuffle = r.strategies[3];
  ASSERT_TRUE(shuffle.history.has_value());
  EXPECT_EQ(shuffle.history->positive, 1);
  EXPECT_EQ(shuffle.history->negative, 0);
  EXPECT_FALSE(r.strategies[1].history.has_value());  // never recorded in this memory
  EXPECT_EQ(fs::file_size(db), size_before);
}

TEST(RunReport, AFolderThatIsNotARunIsRefusedWithWhatToDo) {
  scratch_dir dir;
  EXPECT_NE(headline_of(dir.path() / "nowhere").find("is not a folder"), std::string::npos);
  const std::string no_manifest = headline_of(dir.path());
  EXPECT_NE(no_manifest.find("is not a kopt loop run: it has no run_manifest.json"), std::string::npos) << no_manifest;
  EXPECT_NE(no_manifest.find("optimize_runs/run_"), std::string::npos) << no_manifest;
}

TEST(RunReport, AManifestEditedByHandIsRefused) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture(dir);
  std::string text = read_text_file(run / "run_manifest.json");
  const std::string from = "\"outcome\": \"negative\"";
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "\"outcome\": \"positive\"");
  write_file_atomic(run / "run_manifest.json", text);
  const std::string headline = headline_of(run);
  EXPECT_NE(headline.find("was changed outside kopt"), std::string::npos) << headline;
}

TEST(RunReport, AMissingOrChangedAnalysisOfAProfiledIterationIsRefusedByName) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture(dir);
  const fs::path analysis = loop::iteration_dir(run, 1) / "analysis.json";
  const std::string original = read_text_file(analysis);
  fs::remove(analysis);
  std::string headline = headline_of(run);
  EXPECT_NE(headline.find(analysis.string() + " is missing"), std::string::npos) << headline;
  EXPECT_NE(headline.find("records v1 as profiled"), std::string::npos) << headline;

  std::string changed = original;
  const std::string cls = "\"class\": \"" + gather_run_report(fixture_run_dir()).manifest.find(1)->bottleneck + "\"";
  ASSERT_NE(changed.find(cls), std::string::npos);
  changed.replace(changed.find(cls), cls.size(), "\"class\": \"compute\"");
  write_file_atomic(analysis, changed);
  headline = headline_of(run);
  EXPECT_NE(headline.find("iter_v1/analysis.json says compute but run_manifest.json recorded"), std::string::npos)
      << headline;

  write_file_atomic(analysis, "{\"schema\": \"kopt.something_else/v1\"}");
  headline = headline_of(run);
  EXPECT_NE(headline.find("is not a kopt analysis"), std::string::npos) << headline;
}

// The fixture is what the report's tests need: a run with every outcome the report shows.
TEST(RunReport, TheFixtureRunHasEveryOutcome) {
  const loop::run_manifest m = loop::read_run_manifest(fixture_run_dir());
  std::vector<std::string> outcomes;
  for (const auto& iteration : m.iterations) outcomes.push_back(enum_name(iteration.outcome));
  EXPECT_EQ(outcomes, (std::vector<std::string>{"baseline", "positive", "rejected", "negative"}));
  EXPECT_FALSE(fs::exists(fixture_run_dir().parent_path().parent_path() / "memory.db"))
      << "its memory is gone";
}

}  // namespace
}  // namespace kopt::report
