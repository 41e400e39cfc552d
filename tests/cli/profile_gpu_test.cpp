// GPU machine only (Nsight Compute installed, counters readable): kopt profile end to end. The
// point of every test is *which* launches land in the report: exactly the user's kernels,
// never the reference's, a validation's or a cache flush's.
#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "profile/raw_csv_kernels.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;

std::string example(const std::string& name) { return (testing::source_dir() / "examples" / name).string(); }

std::vector<profile::profiled_kernel> raw_rows(const fs::path& out) {
  return profile::read_profiled_kernels(read_text_file(out / "ncu_raw.csv"));
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

std::size_t entries_in(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// solve() launches two kernels, first_pass then second_pass.
constexpr const char* two_kernel_source = R"(
// kopt: x[N] y[N]
__global__ void first_pass(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}
__global__ void second_pass(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += 1.0f;
}
extern "C" void solve(const float* x, float* y, int N) {
  first_pass<<<(N + 255) / 256, 256>>>(x, y, N);
  second_pass<<<(N + 255) / 256, 256>>>(y, N);
}
)";

TEST(ProfileOnGpu, SoftmaxNaiveCapturesExactlyItsKernel) {
  scratch_dir dir;
  const fs::path out = dir.path() / "profile";
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=4096", "--cols=1024", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  std::printf("%s", r.stdout_text.c_str());
  for (const char* file : {"full.ncu-rep", "ncu_raw.csv", "ncu_details.csv", "ncu_command.txt", "profile.json"}) {
    EXPECT_TRUE(fs::exists(out / file)) << file;
  }
  const auto rows = raw_rows(out);
  ASSERT_EQ(rows.size(), 1u) << "one solve() call launches one kernel; anything else is not the user's";
  EXPECT_TRUE(starts_with(rows[0].name, "softmax_naive_kernel")) << rows[0].name;
  EXPECT_EQ(rows[0].grid, "(32, 1, 1)");
  EXPECT_EQ(rows[0].block, "(128, 1, 1)");
  const auto document = nlohmann::json::parse(read_text_file(out / "profile.json"));
  EXPECT_EQ(document["schema"], "kopt.profile/v1");
  EXPECT_EQ(document["kernel_count"], 1);
  // Where the wall time went, step by step: ncu's own share (capture, export) apart from kopt's.
  ASSERT_TRUE(document["phases_s"].is_object()) << document.dump();
  for (const char* step : {"preparation", "capture", "export", "reading"}) {
    ASSERT_TRUE(document["phases_s"].contains(step)) << step;
    EXPECT_GT(document["phases_s"][step].get<double>(), 0.0) << step;
  }
  EXPECT_NE(document["ncu_command"].get<std::string>().find("--set full"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("softmax_naive_kernel"), std::string::npos);
  // The details page carries ncu's rules, the speed-of-light one among them.
  EXPECT_NE(read_text_file(out / "ncu_details.csv").find("SOLBottleneck"), std::string::npos);
  // The extra metrics the analysis needs are in the same pass.
  const std::string header = first_line(read_text_file(out / "ncu_raw.csv"));
  EXPECT_NE(header.find("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"), std::string::npos);
  EXPECT_NE(header.find("dram__throughput.avg.pct_of_peak_sustained_elapsed"), std::string::npos);
}

TEST(ProfileOnGpu, ReferenceKernelIsNotCaptured) {
  scratch_dir dir;
  const fs::path out = dir.path() / "profile";
  const auto r = run_kopt({"profile", example("vector_add.cu"), "--ref", example("vector_add_ref.cu"), "--N=1048576",
                           "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const auto rows = raw_rows(out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(starts_with(rows[0].name, "vector_add_kernel")) << rows[0].name;
  EXPECT_EQ(rows[0].name.find("reference"), std::string::npos) << rows[0].name;
}

TEST(ProfileOnGpu, EveryKernelOfOneSolveCallIsReportedInLaunchOrder) {
  scratch_dir dir;
  const fs::path kernel = dir.write("two_kernels.cu", two_kernel_source);
  // No --out: the default is <stem>_profile beside the kernel.
  const auto r = run_kopt({"profile", kernel.string(), "--N=1000003", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const fs::path out = dir.path() / "two_kernels_profile";
  const auto rows = raw_rows(out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(starts_with(rows[0].name, "first_pass")) << rows[0].name;
  EXPECT_TRUE(starts_with(rows[1].name, "second_pass")) << rows[1].name;
  const auto printed = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(printed["schema"], "kopt.profile/v1");
  EXPECT_EQ(printed["kernel_count"], 2);
}

TEST(ProfileOnGpu, KernelNameRegexSelectsOneOfThem) {
  scratch_dir dir;
  const fs::path kernel = dir.write("two_kernels.cu", two_kernel_source);
  const fs::path out = dir.path() / "profile";
  const auto r = run_kopt({"profile", kernel.string(), "--N=1000003", "--kernel-name-regex", "second", "--out",
                           out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const auto rows = raw_rows(out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(starts_with(rows[0].name, "second_pass")) << rows[0].name;
}

TEST(ProfileOnGpu, LaunchSkipCountsOnlyLaunchesInsideTheProfilerWindow) {
  // Warm-up calls run before the window; if ncu counted them, skipping one launch would land
  // on a warm-up launch and the window's first_pass would be captured instead.
  scratch_dir dir;
  const fs::path kernel = dir.write("two_kernels.cu", two_kernel_source);
  const fs::path out = dir.path() / "profile";
  const auto r = run_kopt({"profile", kernel.string(), "--N=1000003", "--launch-skip", "1", "--launch-count", "1",
                           "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  const auto rows = raw_rows(out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(starts_with(rows[0].name, "second_pass")) << rows[0].name;
}

TEST(ProfileOnGpu, RegexMatchingNothingIsExitOneAndWritesNothing) {
  scratch_dir dir;
  const fs::path out = dir.path() / "profile";
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=256", "--cols=256", "--kernel-name-regex",
                           "no_such_kernel", "--out", out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(first_line(r.stderr_text), "kopt: profile failed: ncu captured no kernel launch: --kernel-name-regex "
                                       "'no_such_kernel' matched no kernel that solve() launched");
  EXPECT_EQ(entries_in(out), 0u);
}

TEST(ProfileOnGpu, KernelThatFaultsUnderTheProfilerIsExitOne) {
  scratch_dir dir;
  const fs::path kernel = dir.write("faults.cu", R"(
// kopt: x[N] y[N]
__global__ void writes_far_away(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Far past the allocation (a store through nullptr would be undefined and may be removed).
  if (i < n) y[i + (1 << 28)] = x[i];
}
extern "C" void solve(const float* x, float* y, int N) { writes_far_away<<<(N + 255) / 256, 256>>>(x, y, N); }
)");
  const fs::path out = dir.path() / "profile";
  const auto r = run_kopt({"profile", kernel.string(), "--N=4096", "--timeout", "300", "--out", out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  EXPECT_TRUE(starts_with(first_line(r.stderr_text), "kopt: profile failed: ")) << r.stderr_text;
  EXPECT_FALSE(fs::exists(out / "profile.json"));
}

// Stand-ins for ncu, to reach the failures a healthy H200 does not produce. Each answers
// --version like ncu does.
fs::path fake_ncu(const scratch_dir& dir, const std::string& name, const std::string& body) {
  const fs::path script = dir.write(name, "#!/bin/sh\n"
                                          "if [ \"$1\" = --version ]; then echo 'Version 2025.3.1.0 (build 1)'; exit 0; fi\n" +
                                              body);
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

TEST(ProfileOnGpu, CounterPermissionErrorIsExitTwoWithTheFix) {
  scratch_dir dir;
  const auto ncu = fake_ncu(dir, "ncu_no_permission",
                            "echo '==PROF== Connected to process 1 (kopt)'\n"
                            "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
                            "Performance Counters on the target device 0.' >&2\n"
                            "exit 1\n");
  const fs::path out = dir.path() / "profile";
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=256", "--cols=256", "--ncu-bin",
                           ncu.string(), "--out", out.string()});
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_TRUE(starts_with(first_line(r.stderr_text), "kopt: error: ncu may not read this GPU's performance counters "
                                                     "(ERR_NVGPUCTRPERM)"))
      << r.stderr_text;
  EXPECT_NE(first_line(r.stderr_text).find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
  EXPECT_EQ(entries_in(out), 0u);
}

TEST(ProfileOnGpu, NcuThatProfilesNothingIsExitOne) {
  // Runs the profiled program (the argument before "harness" is kopt) without profiling it.
  scratch_dir dir;
  const auto ncu = fake_ncu(dir, "ncu_passthrough",
                            "while [ $# -gt 1 ] && [ \"$2\" != harness ]; do shift; done\n"
                            "echo \"==PROF== Connected to process $$ ($1)\"\n"
                            "\"$@\" || exit $?\n"
                            "echo '==WARNING== No kernels were profiled.'\n");
  const fs::path out = dir.path() / "profile";
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=256", "--cols=256", "--ncu-bin",
                           ncu.string(), "--out", out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  EXPECT_TRUE(starts_with(first_line(r.stderr_text), "kopt: profile failed: ncu captured no kernel launch"))
      << r.stderr_text;
  EXPECT_EQ(entries_in(out), 0u);
}

TEST(ProfileOnGpu, NcuRejectingItsOptionsIsExitTwo) {
  scratch_dir dir;
  const auto ncu = fake_ncu(dir, "ncu_bad_option", "echo \"==ERROR== Could not find section 'NoSuchSection'.\" >&2\nexit 1\n");
  const auto r = run_kopt({"profile", example("softmax_naive.cu"), "--rows=256", "--cols=256", "--ncu-bin",
                           ncu.string(), "--section", "NoSuchSection", "--out", (dir.path() / "profile").string()});
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: ncu failed before running the kernel (exit code 1): ==ERROR== "
                                       "Could not find section 'NoSuchSection'.");
}

}  // namespace
}  // namespace kopt
