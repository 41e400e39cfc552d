// Whole-program tests of `kopt preflight` with the GPU hidden, so they hold on any machine.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;

const std::map<std::string, std::string> no_gpu = {{"CUDA_VISIBLE_DEVICES", ""}};

nlohmann::json check_named(const nlohmann::json& report, const std::string& name) {
  for (const auto& check : report["checks"]) {
    if (check["name"] == name) return check;
  }
  return nullptr;
}

TEST(PreflightCommand, WithoutAGpuReportsTheToolchainAndIsNotReady) {
  scratch_dir out;
  const auto r = run_kopt({"preflight", "--out", out.path().string()}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: not ready: GPU: ", 0), 0u) << r.stderr_text;

  const auto report = nlohmann::json::parse(read_text_file(out.path() / "preflight_check.json"));
  EXPECT_EQ(report["schema"], "kopt.preflight_check/v1");
  EXPECT_EQ(report["ready"], false);
  EXPECT_EQ(check_named(report, "GPU")["status"], "missing");
  EXPECT_EQ(check_named(report, "nvcc")["status"], "ok");
  EXPECT_EQ(check_named(report, "arch")["found"], "sm_90a (default; no GPU to compare with)");
  EXPECT_EQ(check_named(report, "ncu counters")["status"], "skipped");
  EXPECT_FALSE(report["toolchain"]["nvcc"]["version"].get<std::string>().empty());

  const std::string markdown = read_text_file(out.path() / "preflight_check.md");
  EXPECT_NE(markdown.find("# kopt preflight check"), std::string::npos);
  EXPECT_NE(markdown.find("**Not ready**"), std::string::npos);
  EXPECT_NE(markdown.find("| GPU | missing | yes |"), std::string::npos);
}

TEST(PreflightCommand, JsonFlagPrintsTheReport) {
  scratch_dir out;
  const auto r = run_kopt({"preflight", "--json", "--out", out.path().string()}, no_gpu);
  const auto printed = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(printed["schema"], "kopt.preflight_check/v1");
  EXPECT_EQ(printed["backend"], "cuda");
}

TEST(PreflightCommand, MissingNvccIsNamedWithTheFix) {
  scratch_dir out;
  auto env = no_gpu;
  const auto r = run_kopt({"preflight", "--nvcc-bin", "/nonexistent/nvcc", "--out", out.path().string()}, env);
  EXPECT_EQ(r.exit_code, 2);
  const auto report = nlohmann::json::parse(read_text_file(out.path() / "preflight_check.json"));
  const auto nvcc = check_named(report, "nvcc");
  EXPECT_EQ(nvcc["status"], "missing");
  EXPECT_EQ(nvcc["fix"], "pass the path of an existing nvcc to --nvcc-bin");
}

TEST(PreflightCommand, ToolsWithoutAVersionAreRefusedNotOk) {
  scratch_dir out;
  const auto r = run_kopt({"preflight", "--nvcc-bin", "/bin/false", "--ncu-bin", "/bin/true", "--out",
                           out.path().string()},
                          no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  const auto report = nlohmann::json::parse(read_text_file(out.path() / "preflight_check.json"));
  const auto nvcc = check_named(report, "nvcc");
  EXPECT_EQ(nvcc["status"], "missing");
  EXPECT_EQ(nvcc["found"], "refused: /bin/false: `--version` exit code 1 and printed no nvcc version");
  const auto ncu = check_named(report, "ncu");
  EXPECT_EQ(ncu["status"], "missing");
  EXPECT_EQ(ncu["found"], "refused: /bin/true: `--version` exit code 0 and printed no ncu version");
}

TEST(PreflightCommand, CutlassBackendRequiresTheHeaders) {
  scratch_dir out;
  auto env = no_gpu;
  env["CUTLASS_PATH"] = "/nonexistent/cutlass";
  env["KOPT_PYTHON"] = "/bin/false";
  run_kopt({"preflight", "--backend", "cutlass", "--out", out.path().string()}, env);
  const auto report = nlohmann::json::parse(read_text_file(out.path() / "preflight_check.json"));
  const auto cutlass = check_named(report, "CUTLASS");
  EXPECT_EQ(cutlass["status"], "missing");
  EXPECT_EQ(cutlass["required"], true);
  EXPECT_NE(cutlass["found"].get<std::string>().find("/nonexistent/cutlass/include (CUTLASS_PATH)"), std::string::npos);
}

TEST(PreflightCommand, TritonBackendRequiresPythonPackages) {
  scratch_dir out;
  auto env = no_gpu;
  env["KOPT_PYTHON"] = "/nonexistent/python3";
  run_kopt({"preflight", "--backend", "triton", "--out", out.path().string()}, env);
  const auto report = nlohmann::json::parse(read_text_file(out.path() / "preflight_check.json"));
  EXPECT_EQ(check_named(report, "python")["status"], "missing");
  EXPECT_EQ(check_named(report, "python")["required"], true);
  EXPECT_EQ(check_named(report, "nvcc")["required"], false);
}

TEST(PreflightCommand, UnknownBackendIsAUsageError) {
  const auto r = run_kopt({"preflight", "--backend", "opencl"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: unknown backend 'opencl': choose cuda, cutlass, triton or auto (from the file)");
}

TEST(PreflightCommand, BadArchIsAUsageError) {
  const auto r = run_kopt({"preflight", "--arch", "sm_9x"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("unknown --arch 'sm_9x'"), std::string::npos);
}

}  // namespace
}  // namespace kopt
