// The MCP tools as an agent meets them, through the server's answer to tools/list and
// tools/call: output schemas and hints, preflight, a compile from the cache, nvcc's warnings,
// fixes in the tools' words, kb match and memory_query's classes, and a failed loop_step that
// leaves no run folder behind.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "mcp/rpc_channel.h"
#include "mcp/server.h"
#include "mcp/tool.h"
#include "mcp/workspace.h"
#include "support/kopt_process.h"

namespace kopt::mcp {
namespace {
namespace fs = std::filesystem;

json call(const workspace& root, const std::string& tool, json arguments) {
  const json answered = answer(json{{"jsonrpc", "2.0"},
                                    {"id", 1},
                                    {"method", "tools/call"},
                                    {"params", {{"name", tool}, {"arguments", std::move(arguments)}}}},
                               root);
  EXPECT_TRUE(answered.contains("result")) << answered.dump();
  return answered.value("result", json::object());
}

std::string text_of(const json& result) { return result["content"][0]["text"].get<std::string>(); }

constexpr const char* vector_add =
    "// kopt: A[N] B[N] C[N]\n"
    "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}\n";

TEST(McpTools, EveryToolDeclaresItsOutputAndWhetherItOnlyReads) {
  const testing::scratch_dir dir;
  const json listed = answer(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}, workspace(dir.path()));
  const json& tools = listed["result"]["tools"];
  ASSERT_EQ(tools.size(), 12u);
  std::map<std::string, bool> read_only;
  for (const json& t : tools) {
    EXPECT_EQ(t["outputSchema"]["type"], "object") << t["name"];
    EXPECT_FALSE(t["outputSchema"]["properties"].empty()) << t["name"];
    for (const auto& required : t["outputSchema"]["required"]) {
      EXPECT_TRUE(t["outputSchema"]["properties"].contains(required.get<std::string>())) << t["name"] << " " << required;
    }
    ASSERT_TRUE(t["annotations"]["readOnlyHint"].is_boolean()) << t["name"];
    read_only[t["name"].get<std::string>()] = t["annotations"]["readOnlyHint"].get<bool>();
  }
  for (const char* reader : {"preflight", "inspect", "compile", "kb", "memory_query", "bench", "compare"}) {
    EXPECT_TRUE(read_only.at(reader)) << reader;
  }
  for (const char* writer : {"analyze", "profile", "loop_step", "report", "tune"})
    EXPECT_FALSE(read_only.at(writer)) << writer;
}

TEST(McpTools, PreflightSaysReadyOrWhatToDoInTheToolsWords) {
  const testing::scratch_dir dir;
  const json result = call(workspace(dir.path()), "preflight", json::object());
  ASSERT_EQ(result["isError"], false) << result.dump();
  const json& facts = result["structuredContent"];
  ASSERT_TRUE(facts["ready"].is_boolean());
  ASSERT_FALSE(facts["checks"].empty());
  EXPECT_EQ(text_of(result).rfind(facts["ready"].get<bool>() ? "ready" : "not ready", 0), 0u) << text_of(result);
  for (const json& check : facts["checks"]) {
    const std::string fix = check["fix"].get<std::string>();
    EXPECT_EQ(fix.find("--ncu-bin"), std::string::npos) << fix;
    EXPECT_EQ(fix.find("--nvcc-bin"), std::string::npos) << fix;
  }
  EXPECT_EQ(text_of(result).find("-bin"), std::string::npos) << text_of(result);
}

// The inspect tool gives what `kopt inspect --json` gives, the tune space included.
TEST(McpTools, InspectListsTheTuneSpaceAsTheCommandDoes) {
  const testing::scratch_dir dir;
  dir.write("tiled.cu",
            "// kopt: A[N] B[N] C[N] tune(BLOCK, 64, 128) tune(VEC, 1, 4) restrict(BLOCK * VEC <= 256)\n"
            "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}\n");
  const json result =
      call(workspace(dir.path()), "inspect", {{"kernel", "tiled.cu"}, {"dims", {{"N", 4096}}}});
  ASSERT_EQ(result["isError"], false) << result.dump();
  const json& tune = result["structuredContent"]["tune"];
  EXPECT_EQ(tune["configurations"], 4);
  EXPECT_EQ(tune["allowed"], 3) << tune.dump();
  EXPECT_NE(text_of(result).find("tune: 4 configurations, 3 allowed at these dimensions"), std::string::npos)
      << text_of(result);
}

TEST(McpTools, FixesAreWordedAsTheToolsArguments) {
  EXPECT_EQ(in_tool_words("missing dimension: solve() parameter N has no value; pass --N=VALUE"),
            "missing dimension: solve() parameter N has no value; pass dims {\"N\": VALUE}");
  EXPECT_EQ(in_tool_words("missing dimensions: solve() parameters M, N have no value; pass --M=VALUE --N=VALUE"),
            "missing dimensions: solve() parameters M, N have no value; pass dims {\"M\": VALUE, \"N\": VALUE}");
  EXPECT_EQ(in_tool_words("unknown dimension --dim Q=2: solve() has no scalar parameter Q"),
            "unknown dimension dims {\"Q\": 2}: solve() has no scalar parameter Q");
  EXPECT_EQ(in_tool_words("ncu not found: install Nsight Compute, put its folder on PATH, or pass --ncu-bin"),
            "ncu not found: install Nsight Compute, put its folder on PATH, or start kopt mcp with ncu's folder on "
            "PATH (or CUDA_HOME set)");
  EXPECT_EQ(in_tool_words("drop --arch or pass --arch=sm_90a"), "drop \"arch\" or pass \"arch\": \"sm_90a\"");
  EXPECT_EQ(in_tool_words("one --set full pass, --output kept"), "one --set full pass, --output kept");
  EXPECT_EQ(in_tool_words("no GPU to time on: kopt bench needs an NVIDIA GPU; kopt inspect and kopt compile work without one"),
            "no GPU to time on: the bench tool needs an NVIDIA GPU; the inspect tool and the compile tool work without one");
  EXPECT_EQ(in_tool_words("(kopt kb show cuda-more-blocks)"), "(kopt kb show cuda-more-blocks)");

  const testing::scratch_dir dir;
  dir.write("k.cu", vector_add);
  const json missing = call(workspace(dir.path()), "inspect", {{"kernel", "k.cu"}});
  ASSERT_EQ(missing["isError"], true);
  EXPECT_EQ(text_of(missing), "missing dimension: solve() parameter N has no value; pass dims {\"N\": VALUE}");
  EXPECT_EQ(missing["structuredContent"]["error"], text_of(missing));
}

TEST(McpTools, ACompileFromTheCacheSaysSoAndNvccsWarningsAreInTheResult) {
  const testing::scratch_dir cache;
  ::setenv("KOPT_CACHE_DIR", cache.path().c_str(), 1);
  const testing::scratch_dir dir;
  dir.write("warn.cu",
            "__global__ void k(float* x) { int unused = 0; x[0] = 1.0f; }\n"
            "extern \"C\" void solve(float* x) { k<<<1, 1>>>(x); }\n");
  const workspace root(dir.path());
  const json first = call(root, "compile", {{"kernel", "warn.cu"}, {"arch", "sm_90a"}});
  ASSERT_EQ(first["isError"], false) << first.dump();
  EXPECT_EQ(text_of(first).rfind("built for sm_90a in ", 0), 0u) << text_of(first);
  EXPECT_EQ(first["structuredContent"]["from_cache"], false);
  ASSERT_EQ(first["structuredContent"]["warnings"].size(), 1u) << first.dump();
  EXPECT_NE(first["structuredContent"]["warnings"][0].get<std::string>().find("\"unused\""), std::string::npos);
  EXPECT_NE(text_of(first).find("nvcc warned:"), std::string::npos) << text_of(first);

  const json second = call(root, "compile", {{"kernel", "warn.cu"}, {"arch", "sm_90a"}});
  ASSERT_EQ(second["isError"], false) << second.dump();
  EXPECT_EQ(text_of(second).rfind("from the compile cache, built earlier for sm_90a", 0), 0u) << text_of(second);
  EXPECT_EQ(text_of(second).find("built for"), std::string::npos) << text_of(second);
  EXPECT_EQ(second["structuredContent"]["from_cache"], true);
  EXPECT_EQ(second["structuredContent"]["warnings"], first["structuredContent"]["warnings"]);
  ::unsetenv("KOPT_CACHE_DIR");
}

TEST(McpTools, KbMatchTakesTheBackendGivenOrTheKernelsOrEveryBackends) {
  const testing::scratch_dir dir;
  dir.write("k.cu", vector_add);
  const workspace root(dir.path());
  const json every = call(root, "kb", {{"action", "match"}, {"class", "dram"}});
  ASSERT_EQ(every["isError"], false) << every.dump();
  std::set<std::string> backends;
  for (const json& e : every["structuredContent"]["entries"]) backends.insert(e["backend"].get<std::string>());
  EXPECT_GE(backends.size(), 2u) << every.dump();
  const json of_kernel = call(root, "kb", {{"action", "match"}, {"class", "dram"}, {"kernel", "k.cu"}});
  ASSERT_EQ(of_kernel["isError"], false) << of_kernel.dump();
  ASSERT_FALSE(of_kernel["structuredContent"]["entries"].empty());
  for (const json& e : of_kernel["structuredContent"]["entries"]) EXPECT_EQ(e["backend"], "cuda");
  EXPECT_EQ(call(root, "kb", {{"action", "match"}, {"class", "dram"}, {"backend", "cuda"}})["structuredContent"],
            of_kernel["structuredContent"]);
  const json no_class = call(root, "kb", {{"action", "match"}});
  EXPECT_EQ(no_class["isError"], true);
  EXPECT_EQ(text_of(no_class).rfind("kb match needs 'class'", 0), 0u) << text_of(no_class);
}

TEST(McpTools, MemoryQueryRefusesAClassThatIsNotABottleneck) {
  const testing::scratch_dir dir;
  const json refused = answer(json{{"jsonrpc", "2.0"},
                                   {"id", 3},
                                   {"method", "tools/call"},
                                   {"params", {{"name", "memory_query"}, {"arguments", {{"backend", "cuda"}, {"class", "fast"}}}}}},
                              workspace(dir.path()));
  EXPECT_EQ(refused["error"]["code"], invalid_params) << refused.dump();
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("'class' must be one of [\"launch\""), std::string::npos)
      << refused.dump();
}

// loop_step fails before v0 (preflight not ready on a machine without a GPU, else a memory that
// cannot be opened): the run folder it opened is gone, and the answer says so.
TEST(McpTools, AFailedLoopStepLeavesNoRunFolder) {
  const testing::scratch_dir dir;
  dir.write("k.cu", vector_add);
  const testing::scratch_dir memory;
  const fs::path not_a_folder = memory.write("file", "x");
  ::setenv("KOPT_MEMORY_DB", (not_a_folder / "memory.db").c_str(), 1);
  const json failed = call(workspace(dir.path()), "loop_step", {{"kernel", "k.cu"}, {"max_iterations", 1}, {"dims", {{"N", 1024}}}});
  ::unsetenv("KOPT_MEMORY_DB");
  ASSERT_EQ(failed["isError"], true) << failed.dump();
  EXPECT_NE(text_of(failed).find("nothing was recorded: the run folder "), std::string::npos) << text_of(failed);
  EXPECT_FALSE(fs::exists(dir.path() / "optimize_runs")) << "a failed call leaves no run folder";
}

// loop_step's tune options are checked as kopt loop checks --tune's, before anything runs.
TEST(McpTools, LoopStepsTuneOptionsAreCheckedBeforeAnythingRuns) {
  const testing::scratch_dir dir;
  dir.write("k.cu", vector_add);
  const json base = {{"kernel", "k.cu"}, {"max_iterations", 1}, {"dims", {{"N", 1024}}}};
  json without_tune = base;
  without_tune["tune_budget"] = 4;
  const json refused = call(workspace(dir.path()), "loop_step", without_tune);
  EXPECT_EQ(refused.value("isError", false), true) << refused.dump();
  EXPECT_EQ(text_of(refused).rfind("tune_budget and tune_strategy need tune: true", 0), 0U) << text_of(refused);
  json zero = base;
  zero.update(json{{"tune", true}, {"tune_budget", 0}});
  const json below = answer(json{{"jsonrpc", "2.0"},
                                 {"id", 2},
                                 {"method", "tools/call"},
                                 {"params", {{"name", "loop_step"}, {"arguments", zero}}}},
                            workspace(dir.path()));
  EXPECT_EQ(below["error"]["code"], invalid_params) << below.dump();
  EXPECT_EQ(below["error"]["message"], "invalid arguments for loop_step: 'tune_budget' must be at least 1");
  EXPECT_FALSE(fs::exists(dir.path() / "optimize_runs")) << "nothing was started";
}

// The compile tool makes the request kopt compile makes: a Triton module is refused with the
// same words.
TEST(McpTools, CompileRefusesATritonModuleAsKoptCompileDoes) {
  const testing::scratch_dir dir;
  dir.write("k.py", "def setup(**dims): pass\ndef run_kernel(**kw): pass\n");
  const json result = call(workspace(dir.path()), "compile", {{"kernel", "k.py"}});
  EXPECT_EQ(result.value("isError", false), true) << result.dump();
  EXPECT_EQ(text_of(result).rfind("k.py is a Triton module: Triton compiles it when it runs, and compile builds .cu "
                                  "files only",
                                  0),
            0U)
      << text_of(result);
  const auto cli = testing::run_kopt({"compile", (dir.path() / "k.py").string()});
  EXPECT_EQ(testing::first_line(cli.stderr_text),
            "kopt: error: k.py is a Triton module: Triton compiles it when it runs, and compile builds .cu files only");
}

}  // namespace
}  // namespace kopt::mcp
