// `kopt tune` through the real command with a recorded worker (real planning and nvcc builds):
// every allowed configuration is built with its -D values and judged, a wrong one is recorded
// with its reason and never chosen, the fastest two are compared in turns and only that names
// the winner, the tuned kernel has the winning values written in, and a repeated tune reads
// every configuration from the cache.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/recorded_command_run.h"
#include "core/files.h"
#include "support/recorded_children.h"
#include "support/recorded_h200.h"
#include "support/recorded_tune.h"
#include "support/timings.h"
#include "tune/tune_result.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;
using pipeline::recorded_worker;
using TuneCommand = recorded_command_test;
using pipeline::by_configuration;
using pipeline::configuration_of;
using pipeline::time_turns;
using pipeline::tunable_vector_add;

const std::map<std::string, double> medians = {{"BLOCK=64 VEC=1", 10.0},
                                               {"BLOCK=64 VEC=2", 16.0},
                                               {"BLOCK=128 VEC=1", 20.0},
                                               {"BLOCK=128 VEC=2", 15.0},
                                               {"BLOCK=256 VEC=1", 21.0}};

TEST_F(TuneCommand, EveryAllowedConfigurationIsJudgedAndTheFastestTwoComparedInTurnsNameTheWinner) {
  recorded_worker worker(pipeline::recorded_h200(), by_configuration(medians));
  time_turns(worker, "BLOCK=64 VEC=2");  // the runner-up by median is faster in turns
  const fs::path kernel = m_out.write("tiled_add.cu", tunable_vector_add(example("vector_add.cu")));
  const std::vector<std::string> words = {"tune",
                                          kernel.string(),
                                          "--ref",
                                          example("vector_add_ref.cu"),
                                          "--N=1048576",
                                          "--out",
                                          (m_out.path() / "runs").string(),
                                          "--json"};
  const testing::captured_run r = run(words, worker);
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const json document = json::parse(r.out);
  const tune::tune_result result = tune::read_tune_result(document, "--json");
  EXPECT_EQ(result.configurations, 6U);
  EXPECT_EQ(result.allowed, 5U);
  ASSERT_EQ(result.measured.size(), 5U);
  std::map<std::string, tune::measured_configuration> by_name;
  for (const tune::measured_configuration& m : result.measured) by_name[m.configuration] = m;
  EXPECT_EQ(by_name["BLOCK=64 VEC=1"].status, "failed") << "the fastest by its time, and wrong";
  EXPECT_FALSE(by_name["BLOCK=64 VEC=1"].reason.empty());
  EXPECT_TRUE(by_name["BLOCK=128 VEC=2"].passed());
  EXPECT_NEAR(*by_name["BLOCK=128 VEC=2"].median_ms, 0.015, 1e-4);
  // Each configuration was built with its own -D values.
  std::vector<std::string> built;
  for (const pipeline::recorded_run& child : worker.runs()) {
    if (child.job.kind == harness::job_kind::kernel) built.push_back(configuration_of(child.job));
  }
  std::sort(built.begin(), built.end());
  EXPECT_EQ(built, (std::vector<std::string>{"BLOCK=128 VEC=1", "BLOCK=128 VEC=2", "BLOCK=256 VEC=1",
                                             "BLOCK=64 VEC=1", "BLOCK=64 VEC=2"}));

  ASSERT_TRUE(result.winner.has_value());
  ASSERT_TRUE(result.winner->comparison.has_value());
  EXPECT_EQ(result.winner->comparison->runner_up, "BLOCK=64 VEC=2");
  EXPECT_EQ(result.winner->comparison->outcome, "positive");
  EXPECT_EQ(result.winner->configuration, "BLOCK=64 VEC=2")
      << "only the comparison in turns names the winner";
  const std::string tuned = read_text_file(result.winner->tuned_file, "tuned kernel");
  EXPECT_EQ(tuned.rfind("// kopt tune: BLOCK=64 VEC=2\n#ifndef BLOCK\n#define BLOCK 64\n#endif\n", 0), 0U)
      << tuned;
  const fs::path run_dir = document.at("run_dir").get<std::string>();
  EXPECT_EQ(
      tune::read_tune_result(read_json_file(run_dir / "tune_result.json"), "file").winner->configuration,
      "BLOCK=64 VEC=2");

  // Again: every configuration comes from the cache; only the comparison measures.
  const std::size_t runs_before = worker.runs().size();
  const testing::captured_run again = run(words, worker);
  ASSERT_EQ(again.status, 0) << again.err;
  const tune::tune_result repeated = tune::read_tune_result(json::parse(again.out), "--json");
  for (const tune::measured_configuration& m : repeated.measured) EXPECT_TRUE(m.cached) << m.configuration;
  EXPECT_EQ(worker.runs().size(), runs_before) << "no configuration was measured again";
  EXPECT_EQ(repeated.winner->configuration, "BLOCK=64 VEC=2");
}

TEST_F(TuneCommand, TheFastestByMedianStaysWhenTheRunnerUpIsNotFasterInTurnsAndTheBudgetCounts) {
  recorded_worker worker(pipeline::recorded_h200(), by_configuration(medians));
  time_turns(worker, "BLOCK=128 VEC=2");
  const fs::path kernel = m_out.write("tiled_add.cu", tunable_vector_add(example("vector_add.cu")));
  const testing::captured_run r = run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"),
                                       "--N=1048576", "--out", (m_out.path() / "runs").string(), "--strategy",
                                       "random", "--strategy-seed", "5", "--budget", "3", "--fresh"},
                                      worker);
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
  EXPECT_NE(r.out.find("3 of 5 allowed configurations measured (random strategy; stopped by --budget 3)"),
            std::string::npos)
      << r.out;
  std::size_t kernels = 0;
  for (const pipeline::recorded_run& child : worker.runs())
    kernels += child.job.kind == harness::job_kind::kernel ? 1 : 0;
  EXPECT_EQ(kernels, 3U) << "--budget 3 measures three configurations";

  recorded_worker all(pipeline::recorded_h200(), by_configuration(medians));
  time_turns(all, "BLOCK=128 VEC=2");
  const testing::captured_run whole =
      run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--out",
           (m_out.path() / "runs").string(), "--fresh"},
          all);
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_NE(whole.out.find("winner: BLOCK=128 VEC=2 ("), std::string::npos) << whole.out;
  EXPECT_NE(whole.out.find("fastest median; the runner-up BLOCK=64 VEC=2 was negative in turns"),
            std::string::npos)
      << whole.out;
  EXPECT_NE(whole.out.find("BLOCK=64 VEC=1"), std::string::npos);
}

TEST_F(TuneCommand, AKernelWithoutTuneParametersOrWithoutAReferenceIsAUsageError) {
  recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f));
  const testing::captured_run plain =
      run({"tune", example("vector_add.cu"), "--ref", example("vector_add_ref.cu"), "--N=1048576"}, worker);
  EXPECT_EQ(plain.status, 2);
  EXPECT_NE(plain.err.find("declares no tune parameters: add // kopt: tune(MACRO, V1, V2, ...)"),
            std::string::npos)
      << plain.err;
  const fs::path kernel = m_out.write("tiled_add.cu", tunable_vector_add(example("vector_add.cu")));
  const testing::captured_run no_reference = run({"tune", kernel.string(), "--N=1048576"}, worker);
  EXPECT_EQ(no_reference.status, 2);
  EXPECT_NE(no_reference.err.find("give --ref REF"), std::string::npos) << no_reference.err;
  const testing::captured_run none_left = run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"),
                                               "--N=1048576", "-DBLOCK=1", "--strategy", "greedy"},
                                              worker);
  EXPECT_EQ(none_left.status, 2);
  EXPECT_NE(none_left.err.find("--strategy greedy: kopt tune knows exhaustive, random, gp, tpe"),
            std::string::npos)
      << none_left.err;
  const testing::captured_run triton = run(
      {"tune", example("triton_softmax.py"), "--ref", example("softmax_ref.py"), "--rows=64", "--cols=64"},
      worker);
  EXPECT_EQ(triton.status, 2);
  EXPECT_NE(triton.err.find("declares no tune parameters: add # kopt: tune(NAME, V1, V2, ...) naming a constexpr"),
            std::string::npos)
      << triton.err;
  EXPECT_TRUE(worker.runs().empty()) << "nothing was measured";
}

}  // namespace
}  // namespace kopt::cli
