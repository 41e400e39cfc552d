// kopt tune --strategy gp and tpe through the real command with a recorded worker: Optuna's
// models, in kopt's Python, proposes configurations the restrictions allow, each once, up to the budget; the
// same seed proposes the same ones again; a Python without Optuna is refused before anything is
// measured, with the fix.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/recorded_command_run.h"
#include "core/json_io.h"
#include "support/recorded_h200.h"
#include "support/recorded_tune.h"
#include "tune/tune_result.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;
using pipeline::recorded_worker;
using TuneStrategy = recorded_command_test;

// 20 configurations, 17 allowed; the fastest at BLOCK=256 VEC=4.
std::string wide_tunable_vector_add(const std::string& example_file) {
  return "// kopt: tune(BLOCK, 32, 64, 128, 256, 512) tune(VEC, 1, 2, 4, 8) restrict(BLOCK * VEC <= 1024)\n"
         "#ifndef BLOCK\n#define BLOCK 128\n#endif\n#ifndef VEC\n#define VEC 1\n#endif\n" +
         read_text_file(example_file, "example");
}

std::map<std::string, double> bowl_medians() {
  std::map<std::string, double> us;
  for (const int block : {32, 64, 128, 256, 512}) {
    for (const int vec : {1, 2, 4, 8}) {
      us["BLOCK=" + std::to_string(block) + " VEC=" + std::to_string(vec)] =
          10 + 3 * std::abs(std::log2(block / 256.0)) + 2 * std::abs(std::log2(vec / 4.0));
    }
  }
  return us;
}

std::vector<std::string> measured_in_order(const testing::captured_run& r) {
  const tune::tune_result result = tune::read_tune_result(json::parse(r.out), "--json");
  std::vector<std::string> names;
  for (const tune::measured_configuration& m : result.measured) names.push_back(m.configuration);
  return names;
}

class ModelStrategy : public recorded_command_test, public ::testing::WithParamInterface<const char*> {};

TEST_P(ModelStrategy, ProposesAllowedConfigurationsEachOnceUpToTheBudgetAndRepeatsWithItsSeed) {
  const std::string strategy = GetParam();
  const fs::path kernel = m_out.write("wide_add.cu", wide_tunable_vector_add(example("vector_add.cu")));
  const auto tune = [&](const std::string& seed) {
    recorded_worker worker(pipeline::recorded_h200(), pipeline::by_configuration(bowl_medians()));
    pipeline::time_turns(worker, "BLOCK=256 VEC=4");
    return run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--out",
                (m_out.path() / "runs").string(), "--strategy", strategy, "--strategy-seed", seed, "--budget",
                "6", "--fresh", "--compare-seconds", "1", "--json"},
               worker);
  };
  const testing::captured_run first = tune("3");
  ASSERT_EQ(first.status, 0) << first.err;
  const tune::tune_result result = tune::read_tune_result(json::parse(first.out), "--json");
  EXPECT_EQ(result.strategy, strategy);
  EXPECT_EQ(result.allowed, 17U);
  EXPECT_EQ(result.stopped, "stopped by --budget 6");
  const std::vector<std::string> names = measured_in_order(first);
  ASSERT_EQ(names.size(), 6U);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), 6U) << "each configuration once";
  for (const std::string& name : names) {
    for (const char* restricted : {"BLOCK=256 VEC=8", "BLOCK=512 VEC=4", "BLOCK=512 VEC=8"})
      EXPECT_NE(name, restricted) << "restricted out";
  }
  EXPECT_EQ(measured_in_order(tune("3")), names) << "the same seed and results, the same proposals";
  EXPECT_NE(measured_in_order(tune("4")), names);
}

INSTANTIATE_TEST_SUITE_P(OptunaSamplers, ModelStrategy, ::testing::Values("gp", "tpe"));

TEST_F(TuneStrategy, TpeInAPythonWithoutOptunaIsRefusedWithTheFixBeforeAnythingIsMeasured) {
  // The interpreter without its site-packages: the standard library, no Optuna.
  const fs::path python = m_out.write("python_without_packages", "#!/bin/sh\nexec python3 -S \"$@\"\n");
  fs::permissions(python, fs::perms::owner_all);
  ::setenv("KOPT_PYTHON", python.c_str(), 1);
  const fs::path kernel = m_out.write("wide_add.cu", wide_tunable_vector_add(example("vector_add.cu")));
  recorded_worker worker(pipeline::recorded_h200(), pipeline::by_configuration(bowl_medians()));
  const testing::captured_run r =
      run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--out",
           (m_out.path() / "runs").string(), "--strategy", "tpe"},
          worker);
  ::unsetenv("KOPT_PYTHON");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--strategy tpe: the tpe strategy needs optuna in the Python kopt runs"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("pip install optuna=="), std::string::npos) << r.err;
  EXPECT_TRUE(worker.runs().empty()) << "nothing was measured";
  EXPECT_FALSE(fs::exists(m_out.path() / "runs")) << "no run folder for a tune that never started";
}

// Timed by configuration and N: at N=1048576 the widest blocks win, at N=1000 the narrowest.
pipeline::recorded_worker::responder by_shape() {
  const auto inner = pipeline::by_configuration({});
  return [inner](const harness::bench_job& job) {
    pipeline::wrapped_child_run run = inner(job);
    if (job.kind != harness::job_kind::kernel) return run;
    const bool small = std::any_of(job.dims.begin(), job.dims.end(), [](const kernel::dimension_arg& d) {
      return d.name == "N" && d.value == "1000";
    });
    const std::string c = pipeline::configuration_of(job);
    const double block = std::stod(c.substr(c.find('=') + 1, c.find(' ') - c.find('=') - 1));
    harness::child_report report = pipeline::kernel_report_ok();
    report.kernel = testing::timing_around((small ? block : 1000.0 / block) / 1000, 82);
    run.result = to_document(report);
    return run;
  };
}

TEST_F(TuneStrategy, EachExtraShapeIsTunedOnItsOwnAndTheTableSaysWhichConfigurationWinsWhere) {
  recorded_worker worker(pipeline::recorded_h200(), by_shape());
  pipeline::time_turns(worker, "no configuration is faster in turns");
  const fs::path kernel = m_out.write("wide_add.cu", wide_tunable_vector_add(example("vector_add.cu")));
  const testing::captured_run r =
      run({"tune", kernel.string(), "--ref", example("vector_add_ref.cu"), "--N=1048576", "--out",
           (m_out.path() / "runs").string(), "--strategy", "random", "--budget", "4", "--check-dims",
           "--N=1000", "--compare-seconds", "1"},
          worker);
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("at --N=1000: 4 of 17 allowed configurations measured (stopped by --budget 4)"),
            std::string::npos)
      << r.out;
  const fs::path run_dir = r.out.substr(r.out.find("tune folder: ") + 13,
                                        r.out.find(" (tune_result.json)") - r.out.find("tune folder: ") - 13);
  const tune::tune_result result =
      tune::read_tune_result(read_json_file(run_dir / "tune_result.json"), "tune_result.json");
  ASSERT_EQ(result.shapes.size(), 1U);
  ASSERT_TRUE(result.winner && result.shapes[0].winner);
  const auto block_of = [](const std::string& c) { return std::stoi(c.substr(6, c.find(' ') - 6)); };
  int widest = 0, narrowest = 1 << 20;
  for (const tune::measured_configuration& m : result.shapes[0].measured) {
    widest = std::max(widest, block_of(m.configuration));
    narrowest = std::min(narrowest, block_of(m.configuration));
  }
  EXPECT_EQ(block_of(result.shapes[0].winner->configuration), narrowest) << "the narrowest wins at N=1000";
  EXPECT_EQ(result.shapes[0].dimensions, std::vector<std::string>{"N=1000"});
  EXPECT_TRUE(fs::exists(result.shapes[0].winner->tuned_file)) << "each shape's winner has its tuned kernel";
  EXPECT_NE(result.shapes[0].winner->tuned_file, result.winner->tuned_file);
  const std::size_t table = r.out.find("which configuration wins where:");
  ASSERT_NE(table, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--N=1048576", table), std::string::npos);
  EXPECT_NE(r.out.find(" *", table), std::string::npos) << "the winner at each shape is marked";
}

}  // namespace
}  // namespace kopt::cli
