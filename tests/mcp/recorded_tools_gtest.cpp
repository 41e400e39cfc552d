// kopt's MCP tools that measure, called through the server as a client calls them, with a
// recorded measuring worker where the GPU would be (the services the front end gives the
// server): each argument reaches the job the worker was given, and the figures the tool answers
// with are the recorded bench result's.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/files.h"
#include "mcp/server.h"
#include "mcp/workspace.h"
#include "pipeline/bench_result.h"
#include "pipeline/recorded_worker.h"
#include "support/kopt_process.h"
#include "support/recorded_children.h"
#include "support/recorded_h200.h"
#include "support/recorded_tune.h"
#include "support/timings.h"
#include "tune/tune_result.h"

namespace kopt::mcp {
namespace {
namespace fs = std::filesystem;

class RecordedTools : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("KOPT_CACHE_DIR", m_cache.path().c_str(), 1);
    for (const char* name : {"vector_add.cu", "vector_add_ref.cu"}) {
      fs::copy_file(testing::source_dir() / "examples" / name, m_workspace.path() / name);
    }
  }

  // The tool's result, called through the server as a client calls it, measured by `worker`.
  json call(const std::string& tool, const json& arguments, pipeline::measuring_worker& worker) const {
    pipeline::services services;
    services.make_worker = [&worker] { return std::make_unique<pipeline::lent_worker>(worker); };
    services.reference_timing_folder = m_cache.path() / "reference_timing";
    const json request{{"jsonrpc", "2.0"},
                       {"id", 1},
                       {"method", "tools/call"},
                       {"params", {{"name", tool}, {"arguments", arguments}}}};
    const json response = answer(request, workspace(m_workspace.path()), services);
    return response.contains("result") ? response["result"] : response;
  }

  // The tune tool on tiled_add.cu (the example's vector add with two tune parameters, written
  // into the workspace) at N = 1M, with `more` arguments, measured by `worker`.
  json call_tune(const json& more, pipeline::measuring_worker& worker) const {
    write_file_atomic(
        m_workspace.path() / "tiled_add.cu",
        pipeline::tunable_vector_add((testing::source_dir() / "examples" / "vector_add.cu").string()));
    json arguments = {{"kernel", "tiled_add.cu"}, {"ref", "vector_add_ref.cu"}, {"dims", {{"N", 1048576}}}};
    arguments.update(more);
    return call("tune", arguments, worker);
  }

  testing::scratch_dir m_cache;
  testing::scratch_dir m_workspace;
};

TEST_F(RecordedTools, BenchsArgumentsReachTheJobAndItAnswersWithTheDocumentsFigures) {
  pipeline::recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f));
  const json result = call("bench",
                           {{"kernel", "vector_add.cu"},
                            {"ref", "vector_add_ref.cu"},
                            {"dims", {{"N", 1048576}}},
                            {"hot", true},
                            {"min_seconds", 0.2},
                            {"seed", 7},
                            {"atol", 1e-5},
                            {"rtol", 2e-4},
                            {"detail", "full"}},
                           worker);
  ASSERT_EQ(result.value("isError", true), false) << result.dump();
  ASSERT_EQ(worker.runs().size(), 2U) << "the kernel and the reference, each measured by the recorded worker";
  for (const pipeline::recorded_run& child : worker.runs()) {
    EXPECT_TRUE(child.job.sampling.hot);
    EXPECT_EQ(child.job.sampling.min_seconds, 0.2);
    EXPECT_EQ(child.job.seed, 7U);
    EXPECT_EQ(child.job.atol, std::optional<double>(1e-5));
    EXPECT_EQ(child.job.rtol, std::optional<double>(2e-4));
  }
  const json& facts = result["structuredContent"];
  const pipeline::bench_result document = pipeline::read_bench_result(facts["result"], "the tool's result");
  ASSERT_TRUE(document.kernel && document.reference);
  EXPECT_EQ(facts["kernel_ms"], document.kernel->headline_ms());
  EXPECT_EQ(facts["reference_ms"], document.reference->headline_ms());
  EXPECT_EQ(facts["speedup_vs_reference"], *document.speedup_vs_reference);
  EXPECT_EQ(document.correctness.atol, std::optional<double>(1e-5))
      << "the verdict compared with the tolerances given";
  const std::string text = result["content"][0]["text"];
  EXPECT_EQ(text.rfind("passed\n", 0), 0U) << text;
}

// The tune tool runs kopt tune: its arguments reach the search, and it answers with the result
// the run folder keeps.
TEST_F(RecordedTools, TuneSearchesTheDeclaredSpaceAndAnswersWithTheTuneResult) {
  pipeline::recorded_worker worker(pipeline::recorded_h200(),
                                   pipeline::by_configuration(pipeline::tunable_vector_add_medians()));
  pipeline::time_turns(worker, "BLOCK=128 VEC=2");
  const json result = call_tune({{"strategy", "random"}, {"strategy_seed", 2}, {"budget", 4}}, worker);
  ASSERT_EQ(result.value("isError", true), false) << result.dump().substr(0, 2000);
  const tune::tune_result tuned = tune::read_tune_result(result["structuredContent"], "structuredContent");
  EXPECT_EQ(tuned.strategy, "random");
  EXPECT_EQ(tuned.seed, 2U);
  EXPECT_EQ(tuned.measured.size(), 4U) << "the budget";
  ASSERT_TRUE(tuned.winner.has_value());
  EXPECT_EQ(tuned.winner->configuration.empty(), false);
  EXPECT_TRUE(fs::exists(fs::path(tuned.run_dir) / "tune_result.json"));
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("4 of 5 allowed configurations measured"),
            std::string::npos);

  // The report tool, given the tune's folder, answers with the tune and writes its page there.
  const json report = call("report", {{"run_dir", tuned.run_dir}}, worker);
  ASSERT_EQ(report.value("isError", true), false) << report.dump().substr(0, 2000);
  EXPECT_EQ(report["structuredContent"]["winner"]["configuration"], tuned.winner->configuration);
  EXPECT_TRUE(fs::exists(fs::path(tuned.run_dir) / "report.html"));
  EXPECT_NE(report["content"][0]["text"].get<std::string>().find("4 of 5 allowed configurations measured"),
            std::string::npos);
}

// The tune tool's gpus spreads the configurations over the GPUs as kopt tune --gpus does: each
// measured wholly on one GPU, both GPUs used, and the same winner.
TEST_F(RecordedTools, TuneOnEveryGpuMeasuresEachConfigurationWhollyOnOneGpu) {
  pipeline::recorded_worker worker(pipeline::recorded_h200s(2),
                                   pipeline::by_configuration(pipeline::tunable_vector_add_medians()));
  pipeline::time_turns(worker, "BLOCK=128 VEC=2");
  const json result = call_tune({{"gpus", "all"}, {"fresh", true}}, worker);
  ASSERT_EQ(result.value("isError", true), false) << result.dump().substr(0, 2000);
  const tune::tune_result tuned = tune::read_tune_result(result["structuredContent"], "structuredContent");
  ASSERT_TRUE(tuned.winner.has_value());
  EXPECT_EQ(tuned.winner->configuration, "BLOCK=128 VEC=2");
  EXPECT_EQ(tuned.measured.size(), 5U);
  std::map<std::string, std::set<int>> gpus_of;
  std::set<int> used;
  for (const pipeline::recorded_run& child : worker.runs()) {
    if (child.job.kind != harness::job_kind::kernel) continue;
    gpus_of[pipeline::configuration_of(child.job)].insert(child.device.ordinal);
    used.insert(child.device.ordinal);
  }
  EXPECT_EQ(used, (std::set<int>{0, 1}));
  for (const auto& [configuration, on] : gpus_of) EXPECT_EQ(on.size(), 1U) << configuration;
}

TEST_F(RecordedTools, TuneRefusesAGpusValueNamingNoGpuOfTheHost) {
  pipeline::recorded_worker worker(pipeline::recorded_h200s(2), pipeline::by_configuration({}));
  const json result = call_tune({{"gpus", "0,7"}}, worker);
  EXPECT_EQ(result.value("isError", false), true) << result.dump().substr(0, 2000);
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("7"), std::string::npos);
  EXPECT_TRUE(worker.runs().empty()) << "nothing measured";
}

TEST_F(RecordedTools, ComparesArgumentsReachTheVersionsHeldOpenInTurns) {
  pipeline::recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f));
  std::vector<harness::bench_job> jobs;
  worker.respond_to_blocks([&](const harness::bench_job& job, int calls) {
    jobs.push_back(job);
    const double ms = job.kernel_source.find("vector_add_slow.cu") == std::string::npos ? 0.020 : 0.0206;
    return pipeline::timing_block{
        testing::timing_of_samples(std::vector<double>(static_cast<std::size_t>(calls), ms)), "", ""};
  });
  fs::copy_file(m_workspace.path() / "vector_add.cu", m_workspace.path() / "vector_add_slow.cu");
  const json result = call("compare",
                           {{"baseline", "vector_add.cu"},
                            {"candidate", "vector_add_slow.cu"},
                            {"dims", {{"N", 1048576}}},
                            {"hot", true},
                            {"max_seconds", 5}},
                           worker);
  ASSERT_EQ(result.value("isError", true), false) << result.dump();
  ASSERT_FALSE(jobs.empty());
  for (const harness::bench_job& job : jobs) {
    EXPECT_TRUE(job.sampling.hot);
    EXPECT_TRUE((job.kind == harness::job_kind::blocks));
  }
  const json& facts = result["structuredContent"];
  EXPECT_EQ(facts.value("outcome", std::string()), "negative")
      << facts.dump();  // the candidate is 3 % slower
  EXPECT_NEAR(facts.value("ratio", 0.0), 1.03, 1e-9);
}

}  // namespace
}  // namespace kopt::mcp
