// kopt's MCP tools that measure, called through the server as a client calls them, with a
// recorded measuring worker where the GPU would be (the services the front end gives the
// server): each argument reaches the job the worker was given, and the figures the tool answers
// with are the recorded bench result's.
#include <filesystem>

#include <gtest/gtest.h>

#include "mcp/server.h"
#include "mcp/workspace.h"
#include "pipeline/bench_result.h"
#include "pipeline/recorded_worker.h"
#include "support/kopt_process.h"
#include "support/recorded_children.h"
#include "support/recorded_h200.h"

namespace kopt::mcp {
namespace {
namespace fs = std::filesystem;

TEST(RecordedTools, BenchsArgumentsReachTheJobAndItAnswersWithTheDocumentsFigures) {
  const testing::scratch_dir cache;
  ::setenv("KOPT_CACHE_DIR", cache.path().c_str(), 1);
  const testing::scratch_dir dir;
  for (const char* name : {"vector_add.cu", "vector_add_ref.cu"}) {
    fs::copy_file(testing::source_dir() / "examples" / name, dir.path() / name);
  }
  pipeline::recorded_worker worker(pipeline::recorded_h200(), pipeline::two_children(1.0f));
  pipeline::services services;
  services.make_worker = [&worker] { return std::make_unique<pipeline::lent_worker>(worker); };
  services.reference_timing_folder = cache.path() / "reference_timing";
  const json request{{"jsonrpc", "2.0"},
                     {"id", 1},
                     {"method", "tools/call"},
                     {"params",
                      {{"name", "bench"},
                       {"arguments",
                        {{"kernel", "vector_add.cu"},
                         {"ref", "vector_add_ref.cu"},
                         {"dims", {{"N", 1048576}}},
                         {"hot", true},
                         {"min_seconds", 0.2},
                         {"seed", 7},
                         {"atol", 1e-5},
                         {"rtol", 2e-4},
                         {"detail", "full"}}}}}};
  const json response = answer(request, workspace(dir.path()), services);
  ASSERT_TRUE(response.contains("result")) << response.dump();
  const json& result = response["result"];
  ASSERT_EQ(result["isError"], false) << result.dump();
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
  EXPECT_EQ(document.correctness.atol, std::optional<double>(1e-5)) << "the verdict compared with the tolerances given";
  const std::string text = result["content"][0]["text"];
  EXPECT_EQ(text.rfind("passed\n", 0), 0U) << text;
}

}  // namespace
}  // namespace kopt::mcp
