// kopt tune --gpus through the real command with 2 and 8 recorded GPUs: the configurations are
// measured side by side, each wholly on one GPU, every one once, recorded in the strategy's order
// whichever GPU finished first; the winner is the one a single GPU names; a GPU that stops
// answering is dropped with a warning and its configuration measured on another; a model-based
// strategy never proposes a configuration still being measured.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/recorded_command_run.h"
#include "support/recorded_h200.h"
#include "support/recorded_tune.h"
#include "tune/tune_result.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;
using pipeline::recorded_worker;
using TuneOnGpus = recorded_command_test;

const std::map<std::string, double> medians = {{"BLOCK=64 VEC=1", 10.0},
                                               {"BLOCK=64 VEC=2", 16.0},
                                               {"BLOCK=128 VEC=1", 20.0},
                                               {"BLOCK=128 VEC=2", 15.0},
                                               {"BLOCK=256 VEC=1", 21.0}};

std::vector<std::string> names_of(const tune::tune_result& result) {
  std::vector<std::string> names;
  for (const tune::measured_configuration& m : result.measured) names.push_back(m.configuration);
  return names;
}

class TuneSpread : public recorded_command_test, public ::testing::WithParamInterface<int> {};

TEST_P(TuneSpread, ConfigurationsAreMeasuredSideBySideEachOnceInTheStrategysOrder) {
  const int gpu_count = GetParam();
  const fs::path kernel = m_out.write("tiled_add.cu", pipeline::tunable_vector_add(example("vector_add.cu")));
  const auto tune = [&](recorded_worker& worker, const std::vector<std::string>& more) {
    std::vector<std::string> words = {"tune",
                                      kernel.string(),
                                      "--ref",
                                      example("vector_add_ref.cu"),
                                      "--N=1048576",
                                      "--out",
                                      (m_out.path() / "runs").string(),
                                      "--fresh",
                                      "--json"};
    words.insert(words.end(), more.begin(), more.end());
    return run(words, worker);
  };
  recorded_worker one(pipeline::recorded_h200(), pipeline::by_configuration(medians));
  pipeline::time_turns(one, "BLOCK=64 VEC=2");
  const testing::captured_run alone = tune(one, {});
  ASSERT_EQ(alone.status, 0) << alone.err;

  recorded_worker several(pipeline::recorded_h200s(gpu_count), pipeline::by_configuration(medians));
  pipeline::time_turns(several, "BLOCK=64 VEC=2");
  const testing::captured_run spread = tune(several, {"--gpus", "all"});
  ASSERT_EQ(spread.status, 0) << spread.err;
  const tune::tune_result a = tune::read_tune_result(json::parse(alone.out), "--json");
  const tune::tune_result b = tune::read_tune_result(json::parse(spread.out), "--json");
  EXPECT_EQ(names_of(b), names_of(a)) << "recorded in the strategy's order";
  ASSERT_TRUE(a.winner && b.winner);
  EXPECT_EQ(b.winner->configuration, a.winner->configuration);

  std::map<std::string, std::set<int>> gpus_of;  // a configuration's kernel and reference runs
  std::set<int> used;
  for (const pipeline::recorded_run& child : several.runs()) {
    if (child.job.kind != harness::job_kind::kernel && child.job.kind != harness::job_kind::reference)
      continue;
    gpus_of[pipeline::configuration_of(child.job)].insert(child.device.ordinal);
    used.insert(child.device.ordinal);
  }
  for (const auto& [configuration, on] : gpus_of) {
    EXPECT_EQ(on.size(), 1U) << configuration << " measured wholly on one GPU";
  }
  EXPECT_EQ(used.size(), static_cast<std::size_t>(std::min(gpu_count, 5)))
      << "every GPU took a configuration";
}

INSTANTIATE_TEST_SUITE_P(TwoAndEightGpus, TuneSpread, ::testing::Values(2, 8));

TEST_F(TuneOnGpus, AGpuThatStopsAnsweringIsDroppedAndItsConfigurationMeasuredOnAnother) {
  recorded_worker worker(pipeline::recorded_h200s(2), pipeline::by_configuration(medians));
  pipeline::time_turns(worker, "BLOCK=64 VEC=2");
  worker.lose_gpu_at_next_run(1);
  const fs::path kernel = m_out.write("tiled_add.cu", pipeline::tunable_vector_add(example("vector_add.cu")));
  const testing::captured_run r =
      run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--out",
           (m_out.path() / "runs").string(), "--gpus", "0,1", "--fresh", "--json"},
          worker);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("kopt: warning: GPU 1 failed while it measured "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not used again; measured again on another GPU"), std::string::npos) << r.err;
  const tune::tune_result result = tune::read_tune_result(json::parse(r.out), "--json");
  EXPECT_EQ(result.measured.size(), 5U) << "every configuration measured";
}

TEST_F(TuneOnGpus, AModelStrategyNeverProposesAConfigurationStillBeingMeasured) {
  recorded_worker worker(pipeline::recorded_h200s(3), pipeline::by_configuration(medians));
  pipeline::time_turns(worker, "BLOCK=64 VEC=2");
  const fs::path kernel = m_out.write("tiled_add.cu", pipeline::tunable_vector_add(example("vector_add.cu")));
  const testing::captured_run r =
      run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--out",
           (m_out.path() / "runs").string(), "--gpus", "all", "--strategy", "tpe", "--budget", "4", "--fresh",
           "--compare-seconds", "1", "--json"},
          worker);
  ASSERT_EQ(r.status, 0) << r.err;
  const tune::tune_result result = tune::read_tune_result(json::parse(r.out), "--json");
  const std::vector<std::string> names = names_of(result);
  EXPECT_EQ(names.size(), 4U);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << "each once";
  EXPECT_EQ(result.stopped, "stopped by --budget 4");
}

TEST_F(TuneOnGpus, AGpuOfAnotherModelIsLeftOutSoThatAllMediansComeFromOneModel) {
  env::gpu_probe_result gpus = pipeline::recorded_h200s(2);
  gpus.devices[1].name = "NVIDIA H100 80GB HBM3";
  recorded_worker worker(gpus, pipeline::by_configuration(medians));
  pipeline::time_turns(worker, "BLOCK=64 VEC=2");
  const fs::path kernel = m_out.write("tiled_add.cu", pipeline::tunable_vector_add(example("vector_add.cu")));
  const testing::captured_run r =
      run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--out",
           (m_out.path() / "runs").string(), "--gpus", "all", "--fresh", "--compare-seconds", "1"},
          worker);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("kopt: warning: GPU 1 (NVIDIA H100 80GB HBM3) differs from GPU 0"), std::string::npos)
      << r.err;
  for (const pipeline::recorded_run& child : worker.runs()) EXPECT_EQ(child.device.ordinal, 0);
}

}  // namespace
}  // namespace kopt::cli
