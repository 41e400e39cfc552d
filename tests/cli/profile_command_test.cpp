// Whole-program tests of `kopt profile` that need no GPU and no Nsight Compute: what is refused,
// and in which order (ncu is looked for before anything needs a GPU).
#include <gtest/gtest.h>

#include "support/kopt_process.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;

const std::map<std::string, std::string> no_gpu = {{"CUDA_VISIBLE_DEVICES", ""}};

std::string example(const std::string& name) { return (testing::source_dir() / "examples" / name).string(); }

// An executable that answers --version like ncu and does nothing else.
fs::path version_only_ncu(const scratch_dir& dir) {
  const fs::path script = dir.write("ncu", "#!/bin/sh\n"
                                           "echo 'NVIDIA (R) Nsight Compute Command Line Profiler'\n"
                                           "echo 'Version 2025.3.1.0 (build 1) (public-release)'\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

TEST(ProfileCommand, ABadDimensionIsNamedBeforeNcuIsLookedFor) {
  const auto r = run_kopt({"profile", example("vector_add.cu"), "--N=abc", "--ncu-bin", "/nonexistent/ncu"}, no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: bad value for dimension N: 'abc' is not an integer", 0), 0u)
      << r.stderr_text;
}

TEST(ProfileCommand, MissingNcuBinIsNamedBeforeTheGpuIsNeeded) {
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=4096", "--cols=1024", "--ncu-bin",
                           "/nonexistent/ncu"},
                          no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: ncu not found at --ncu-bin=/nonexistent/ncu: pass the path of an existing ncu (Nsight Compute)");
}

TEST(ProfileCommand, NoNcuAnywhereSaysToInstallNsightCompute) {
  if (fs::exists("/usr/local/cuda/bin/ncu") || fs::exists("/opt/nvidia/nsight-compute")) {
    GTEST_SKIP() << "this machine has Nsight Compute installed";
  }
  scratch_dir empty;
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=4096", "--cols=1024"},
                          {{"CUDA_VISIBLE_DEVICES", ""},
                           {"PATH", empty.path().string()},
                           {"CUDA_HOME", empty.path().string()},
                           {"CUDA_PATH", empty.path().string()}});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: ncu (Nsight Compute) not found: install Nsight Compute", 0),
            0u)
      << r.stderr_text;
  EXPECT_NE(first_line(r.stderr_text).find("--ncu-bin"), std::string::npos);
}

TEST(ProfileCommand, WithNcuPresentTheMissingGpuComesNext) {
  scratch_dir dir;
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=4096", "--cols=1024", "--ncu-bin",
                           version_only_ncu(dir).string(), "--out", (dir.path() / "out").string()},
                          no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text).rfind("kopt: error: no GPU to profile on (", 0), 0u) << r.stderr_text;
  EXPECT_NE(first_line(r.stderr_text).find("kopt profile needs an NVIDIA GPU"), std::string::npos);
  // Nothing was written for a run that never started.
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(ProfileCommand, TritonModuleIsCheckedBeforeTheGpu) {
  scratch_dir dir;
  const std::string ncu = version_only_ncu(dir).string();
  const auto kernel = dir.write("triton_softmax.py", "def setup(rows, cols, seed=0):\n    return {}\n");
  const auto broken = run_kopt({"profile", kernel.string(), "--rows=4", "--ncu-bin", ncu}, no_gpu);
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(first_line(broken.stderr_text).find("defines no run_kernel()"), std::string::npos) << broken.stderr_text;
  const auto valid = run_kopt({"profile", example("triton_softmax.py"), "--rows=4", "--cols=4", "--ncu-bin", ncu}, no_gpu);
  EXPECT_EQ(valid.exit_code, 2);
  EXPECT_EQ(first_line(valid.stderr_text).rfind("kopt: error: no GPU to profile on", 0), 0u) << valid.stderr_text;
}

TEST(ProfileCommand, LaunchFiltersThatSelectNothingAreUsageErrors) {
  scratch_dir dir;
  const std::string ncu = version_only_ncu(dir).string();
  const auto zero = run_kopt({"profile", example("softmax_naive.cu"), "--rows=4", "--cols=4", "--ncu-bin", ncu,
                              "--launch-count", "0"},
                             no_gpu);
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_EQ(first_line(zero.stderr_text).rfind("kopt: error: kopt profile: --launch-count: 0 is too few: give 1 or more "
                                               "(launches)",
                                               0),
            0u)
      << zero.stderr_text;
  const auto calls = run_kopt({"profile", example("softmax_naive.cu"), "--rows=4", "--cols=4", "--ncu-bin", ncu,
                               "--profile-calls", "0"},
                              no_gpu);
  EXPECT_EQ(calls.exit_code, 2);
  EXPECT_EQ(first_line(calls.stderr_text).rfind("kopt: error: kopt profile: --profile-calls: 0 is too few: give 1 or "
                                                "more (solve() calls)",
                                                0),
            0u)
      << calls.stderr_text;
}

TEST(ProfileCommand, MissingDimensionIsNamed) {
  scratch_dir dir;
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=4", "--ncu-bin", version_only_ncu(dir).string()},
                          no_gpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("--cols=VALUE"), std::string::npos) << r.stderr_text;
}

TEST(ProfileCommand, IsListedInHelp) {
  const auto r = run_kopt({"--help"});
  EXPECT_NE(r.stdout_text.find("profile"), std::string::npos);
  const auto sub = run_kopt({"profile", "--help"});
  EXPECT_EQ(sub.exit_code, 0);
  for (const char* flag : {"--kernel-name-regex", "--launch-skip", "--launch-count", "--ncu-bin", "--set", "--section",
                           "--metrics", "--profile-calls", "--out", "--ref"}) {
    EXPECT_NE(sub.stdout_text.find(flag), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace kopt
