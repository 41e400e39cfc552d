// GPU machine only: kopt tune end to end on a real kernel. A configuration that is fast because
// it skips half the work and one that writes out of bounds are recorded with their reasons and
// never chosen; the tuned kernel passes kopt bench; a repeated tune reads every configuration
// from the cache and names a winner among those that passed. A Triton module's autotuned
// configurations are measured one at a time, pinned, under the same judge.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/kopt_process.h"

namespace kopt {
namespace {
using testing::run_kopt;
using testing::scratch_dir;
namespace fs = std::filesystem;

// A vector add whose block size and elements per thread are tuned. BLOCK=256 VEC=2 launches half
// the blocks (fast, and wrong); BLOCK=64 VEC=4 writes far past C's end. Its defaults are in a
// header beside it, which the copies in the run folder (the fastest two, the tuned file) must find.
const char* const tunable_add = R"(// kopt: A[N] B[N] C[N]
// kopt: tune(BLOCK, 64, 128, 256) tune(VEC, 1, 2, 4) restrict(BLOCK * VEC <= 512)
#include <cuda_runtime.h>
#include "add_defaults.cuh"
__global__ void add(const float* A, const float* B, float* C, int N) {
  const int first = blockIdx.x * BLOCK * VEC + threadIdx.x;
#pragma unroll
  for (int v = 0; v < VEC; ++v) {
    const int i = first + v * BLOCK;
#if BLOCK == 64 && VEC == 4
    if (i < N) C[i + (1 << 28)] = A[i] + B[i];
#else
    if (i < N) C[i] = A[i] + B[i];
#endif
  }
}
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  if (N <= 0) return;
  int blocks = (N + BLOCK * VEC - 1) / (BLOCK * VEC);
#if BLOCK == 256 && VEC == 2
  blocks /= 2;
#endif
  add<<<blocks, BLOCK>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
)";

const char* const tunable_add_defaults = R"(#ifndef BLOCK
#define BLOCK 128
#endif
#ifndef VEC
#define VEC 1
#endif
)";

struct tuned {
  int exit_code = -1;
  std::string stderr_text;
  nlohmann::json document;
};

tuned tune(const scratch_dir& dir, const fs::path& kernel, const fs::path& cache) {
  const auto r = run_kopt(
      {"tune", kernel.string(), "--ref", (testing::source_dir() / "examples" / "vector_add_ref.cu").string(),
       "--N=4194305", "--out", (dir.path() / "runs").string(), "--json"},
      {{"KOPT_CACHE_DIR", cache.string()}});
  tuned t{r.exit_code, r.stderr_text, nullptr};
  if (r.exit_code == 0) t.document = nlohmann::json::parse(r.stdout_text);
  return t;
}

std::map<std::string, nlohmann::json> by_configuration(const nlohmann::json& document) {
  std::map<std::string, nlohmann::json> out;
  for (const nlohmann::json& m : document.at("measured")) out[m.at("configuration")] = m;
  return out;
}

TEST(TuneOnGpu, WrongAndCrashingConfigurationsAreNeverChosenAndTheTunedKernelPassesBench) {
  scratch_dir dir;
  const fs::path kernel = dir.write("tunable_add.cu", tunable_add);
  dir.write("add_defaults.cuh", tunable_add_defaults);
  const tuned first = tune(dir, kernel, dir.path() / "cache");
  ASSERT_EQ(first.exit_code, 0) << first.stderr_text;
  const nlohmann::json& d = first.document;
  EXPECT_EQ(d.at("allowed"), 8);
  auto measured = by_configuration(d);
  ASSERT_EQ(measured.size(), 8U) << d.dump(1);
  const nlohmann::json& skips_half = measured.at("BLOCK=256 VEC=2");
  EXPECT_EQ(skips_half.at("status"), "failed") << skips_half.dump();
  EXPECT_NE(skips_half.at("reason").get<std::string>(), "");
  const nlohmann::json& out_of_bounds = measured.at("BLOCK=64 VEC=4");
  EXPECT_NE(out_of_bounds.at("status"), "ok") << out_of_bounds.dump();
  EXPECT_NE(out_of_bounds.at("reason").get<std::string>(), "");
  int passed = 0;
  for (const auto& [name, m] : measured) passed += m.at("status") == "ok" ? 1 : 0;
  EXPECT_EQ(passed, 6) << d.dump(1);

  ASSERT_TRUE(d.at("winner").is_object()) << d.dump(1);
  const std::string winner = d.at("winner").at("configuration");
  EXPECT_EQ(measured.at(winner).at("status"), "ok");
  ASSERT_TRUE(d.at("winner").at("comparison").is_object()) << "the fastest two are compared in turns";
  const std::string outcome = d.at("winner").at("comparison").at("outcome");
  EXPECT_TRUE(outcome == "positive" || outcome == "negative" || outcome == "neutral" ||
              outcome == "inconclusive")
      << outcome;

  // The tuned kernel, with the winner's values written in, passes the judge on its own.
  const std::string tuned_file = d.at("winner").at("tuned_file");
  const auto bench =
      run_kopt({"bench", tuned_file, "--ref",
                (testing::source_dir() / "examples" / "vector_add_ref.cu").string(), "--N=4194305"});
  EXPECT_EQ(bench.exit_code, 0) << bench.stderr_text << bench.stdout_text;
  EXPECT_TRUE(fs::exists(fs::path(d.at("run_dir").get<std::string>()) / "tune_result.json"));

  // Again with the same cache: nothing is measured again, and the winner passed.
  const tuned again = tune(dir, kernel, dir.path() / "cache");
  ASSERT_EQ(again.exit_code, 0) << again.stderr_text;
  for (const auto& [name, m] : by_configuration(again.document)) {
    EXPECT_TRUE(m.at("cached").get<bool>()) << name;
  }
  const std::string second_winner = again.document.at("winner").at("configuration");
  EXPECT_EQ(measured.at(second_winner).at("status"), "ok");
}

// A Triton module behind @triton.autotune, tuned through its `# kopt: tune(...)` annotations: each
// configuration runs pinned (Triton's own search never runs), the config that covers half of each
// block and the module-level OFFSET that shifts the answer fail the judge, and the tuned module,
// the winner pinned at its end, passes bench on its own.
TEST(TuneOnGpu, ATritonModuleIsTunedOneConfigurationAtATimeAndTheWrongOnesAreNeverChosen) {
  scratch_dir dir;
  const fs::path data = testing::source_dir() / "tests" / "data" / "triton";
  const auto r = run_kopt({"tune", (data / "autotuned_scale.py").string(), "--ref", (data / "scale_ref.py").string(),
                           "--n=1048576", "--out", (dir.path() / "runs").string(), "--json"},
                          {{"KOPT_CACHE_DIR", (dir.path() / "cache").string()}});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const nlohmann::json d = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(d.at("allowed"), 8);
  const auto measured = by_configuration(d);
  ASSERT_EQ(measured.size(), 8U) << d.dump(1);
  for (const auto& [name, m] : measured) {
    const bool right = name.find("config=0") != std::string::npos && name.find("OFFSET=0") != std::string::npos;
    EXPECT_EQ(m.at("status") == "ok", right) << name << ": " << m.dump();
    if (!right) {
      EXPECT_NE(m.at("reason").get<std::string>(), "") << name;
    }
  }
  ASSERT_TRUE(d.at("winner").is_object()) << d.dump(1);
  const std::string winner = d.at("winner").at("configuration");
  EXPECT_EQ(measured.at(winner).at("status"), "ok");
  EXPECT_TRUE(d.at("winner").at("comparison").is_object()) << "the fastest two are compared in turns";
  const fs::path tuned_file = d.at("winner").at("tuned_file").get<std::string>();
  EXPECT_EQ(tuned_file.extension(), ".py");
  const auto bench = run_kopt({"bench", tuned_file.string(), "--ref", (data / "scale_ref.py").string(), "--n=1048576"});
  EXPECT_EQ(bench.exit_code, 0) << bench.stderr_text << bench.stdout_text;
}

}  // namespace
}  // namespace kopt
