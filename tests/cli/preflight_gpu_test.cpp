// GPU machine only: preflight must find everything ready, and compile must target the GPU.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "compile/arch.h"
#include "core/files.h"
#include "env/gpu_probe.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {

TEST(PreflightOnGpu, IsReadyAndReadsCounters) {
  testing::scratch_dir out;
  const auto r = testing::run_kopt({"preflight", "--out", out.path().string()});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const auto report = nlohmann::json::parse(read_text_file(out.path() / "preflight_check.json"));
  EXPECT_EQ(report["ready"], true);
  for (const auto& check : report["checks"]) {
    if (check["name"] == "ncu counters") {
      EXPECT_EQ(check["status"], "ok") << check["found"];
    }
    if (check["name"] == "GPU") {
      EXPECT_EQ(check["status"], "ok");
    }
  }
  ASSERT_FALSE(report["devices"].empty());
  EXPECT_FALSE(report["driver"]["version"].get<std::string>().empty());
}

TEST(CompileOnGpu, DefaultArchIsTheDevices) {
  const env::gpu_probe_result gpus = env::probe_gpus();
  ASSERT_TRUE(gpus.has_gpu()) << gpus.driver_problem;
  const auto r = testing::run_kopt({"compile", (testing::source_dir() / "examples/vector_add.cu").string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string expected = compile::default_arch(gpus.devices.front().capability).name;
  EXPECT_EQ(nlohmann::json::parse(r.stdout_text)["arch"], expected);
  if (gpus.devices.front().capability.major == 9 && gpus.devices.front().capability.minor == 0) {
    EXPECT_EQ(expected, "sm_90a");
  }
}

}  // namespace
}  // namespace kopt
