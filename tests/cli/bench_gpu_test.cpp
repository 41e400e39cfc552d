// GPU machine only: kopt bench end to end, and the integrity cases it must catch.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/kopt_process.h"
#include "support/result_fields.h"

namespace kopt {
namespace {
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;

// y[i] = x[i] * 2 for i < N: the reference every integrity kernel is checked against.
constexpr const char* reference_source = R"(
// kopt: x[N] y[N]
__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}
extern "C" void solve(const float* x, float* y, int N) { twice<<<(N + 255) / 256, 256>>>(x, y, N); }
)";

std::string kernel_with_body(const std::string& body, const std::string& extra = "") {
  return "// kopt: x[N] y[N]\n" + extra + "__global__ void k(const float* x, float* y, int n) {\n" +
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" + body + "\n}\n" +
         "extern \"C\" void solve(const float* x, float* y, int N) { k<<<(N + 255) / 256, 256>>>(x, y, N); }\n";
}

struct bench_outcome {
  int exit_code = -1;
  std::string stderr_first_line;
  nlohmann::json result;
};

bench_outcome bench(const std::string& kernel_source, const std::vector<std::string>& extra_args = {}) {
  static scratch_dir dir;
  static int counter = 0;
  const auto kernel = dir.write("k" + std::to_string(++counter) + ".cu", kernel_source);
  const auto reference = dir.write("ref.cu", reference_source);
  const auto json_out = dir.path() / ("r" + std::to_string(counter) + ".json");
  std::vector<std::string> args = {"bench", kernel.string(), "--ref", reference.string(), "--N=1000003",
                                   "--max-seconds", "1", "--json-out", json_out.string()};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  const auto r = run_kopt(args);
  bench_outcome outcome{r.exit_code, first_line(r.stderr_text), nullptr};
  if (std::filesystem::exists(json_out)) outcome.result = nlohmann::json::parse(std::ifstream(json_out));
  return outcome;
}

TEST(BenchOnGpu, VectorAddAgainstNativeReference) {
  const auto examples = testing::source_dir() / "examples";
  scratch_dir dir;
  const auto out = dir.path() / "r.json";
  const auto r = run_kopt({"bench", (examples / "vector_add.cu").string(), "--ref=" + (examples / "vector_add_ref.cu").string(),
                           "--N=16777216", "--json-out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  std::printf("%s", r.stdout_text.c_str());
  const auto result = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(result["schema"], "kopt.benchmark_result/v4");
  EXPECT_EQ(result["correctness"]["passed"], true);
  const double median_us = result["kernel"]["median_ms"].get<double>() * 1000;
  EXPECT_GT(median_us, 30);
  EXPECT_LT(median_us, 500);
  EXPECT_EQ(result["kernel"]["kernels_per_call"], 1);
  EXPECT_GT(result["speedup_vs_reference"].get<double>(), 0.5);
  // The interval brackets the point estimate, and the verdict agrees with it.
  const double speedup = result["speedup_vs_reference"].get<double>();
  ASSERT_TRUE(testing::present(result, "speedup_vs_reference_ci95"));
  EXPECT_LE(result["speedup_vs_reference_ci95"][0].get<double>(), speedup);
  EXPECT_GE(result["speedup_vs_reference_ci95"][1].get<double>(), speedup);
  const std::string verdict = result["kernel_vs_reference"]["verdict"];
  if (verdict == "faster") {
    EXPECT_GT(speedup, 1.0);
  } else if (verdict == "slower") {
    EXPECT_LT(speedup, 1.0);
  }
  // The kernel's process was started ahead and made its GPU context while the kernel built (no
  // other kopt measures on this GPU during the test); both sides' kept outputs were removed
  // before the answer, and that time is reported too.
  const nlohmann::json& phases = result["phases_s"];
  EXPECT_TRUE(phases["kernel"]["gpu_context_made_ahead"].is_number()) << phases.dump();
  EXPECT_TRUE(phases["steps"]["removing_evidence"].is_number()) << phases.dump();
}

TEST(BenchOnGpu, CorrectKernelPasses) {
  const auto o = bench(kernel_with_body("  if (i < n) y[i] = x[i] + x[i];"));
  EXPECT_EQ(o.exit_code, 0) << o.stderr_first_line;
}

// Several kernels at once, spread over every GPU of the machine (one slot on a one-GPU machine):
// each is judged against the reference on its own GPU, so a wrong one fails alone.
TEST(BenchOnGpu, SeveralKernelsOnEveryGpuAreEachJudgedWithTheReferenceOnTheirGpu) {
  scratch_dir dir;
  const auto right = dir.write("right.cu", kernel_with_body("  if (i < n) y[i] = x[i] + x[i];"));
  const auto wrong = dir.write("wrong.cu", kernel_with_body("  if (i < n) y[i] = x[i] * 3.0f;"));
  const auto reference = dir.write("ref.cu", reference_source);
  const auto json_out = dir.path() / "several.json";
  const auto r = run_kopt({"bench", right.string(), wrong.string(), "--ref", reference.string(), "--N=1000003",
                           "--max-seconds", "1", "--gpus", "all", "--json-out", json_out.string()});
  EXPECT_EQ(r.exit_code, 1) << "the wrong kernel fails the command: " << r.stderr_text;
  const nlohmann::json document = nlohmann::json::parse(std::ifstream(json_out));
  ASSERT_EQ(document["results"].size(), 2U) << document.dump().substr(0, 2000);
  const nlohmann::json& passed = document["results"][0]["document"];
  const nlohmann::json& failed = document["results"][1]["document"];
  EXPECT_EQ(passed["status"], "ok") << passed.dump().substr(0, 2000);
  EXPECT_TRUE(passed["speedup_vs_reference"].is_number()) << "kernel and reference timed on one GPU";
  EXPECT_EQ(failed["status"], "failed") << failed.dump().substr(0, 2000);
  EXPECT_NE(r.stderr_text.find(wrong.string() + ": failed"), std::string::npos) << r.stderr_text;
}

// Without --ref the outputs are not judged, so they are shown: the first elements of every
// buffer after the first call (y = 2x there, seen in the numbers).
TEST(BenchOnGpu, WithoutAReferenceTheBuffersArePreviewed) {
  scratch_dir dir;
  const auto kernel = dir.write("twice.cu", reference_source);
  const auto r = run_kopt({"bench", kernel.string(), "--N=1000003", "--max-seconds", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("preview: x (in, 1000003 x float32): "), std::string::npos) << r.stdout_text;
  const std::size_t y = r.stdout_text.find("preview: y (out, 1000003 x float32): ");
  ASSERT_NE(y, std::string::npos) << r.stdout_text;
  const std::string x_line = r.stdout_text.substr(r.stdout_text.find("preview: x"));
  const double x0 = std::stod(x_line.substr(x_line.find("): ") + 3));
  const std::string y_line = r.stdout_text.substr(y);
  EXPECT_NEAR(std::stod(y_line.substr(y_line.find("): ") + 3)), 2 * x0, 1e-5 * std::fabs(x0) + 1e-12) << r.stdout_text;
}

// What the kernel prints (device printf from the kernel, host printf in solve()) reaches the
// result's kernel_output, bounded: its end kept, with a note, when it prints on every call.
TEST(BenchOnGpu, WhatTheKernelPrintsIsKeptInTheResult) {
  const std::string source = R"(#include <cstdio>
// kopt: x[N] y[N]
__global__ void k(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("device says n=%d\n", n);
  if (i < n) y[i] = x[i] + x[i];
}
extern "C" void solve(const float* x, float* y, int N) {
  std::printf("host says N=%d\n", N);
  k<<<(N + 255) / 256, 256>>>(x, y, N);
}
)";
  const auto o = bench(source);
  ASSERT_EQ(o.exit_code, 0) << o.stderr_first_line;
  const nlohmann::json& printed = o.result["kernel_output"];
  ASSERT_TRUE(printed.is_object()) << o.result.dump();
  const std::string out = printed["stdout_text"].get<std::string>();
  EXPECT_NE(out.find("host says N=1000003\n"), std::string::npos) << out.substr(0, 200);
  EXPECT_NE(out.find("device says n=1000003\n"), std::string::npos) << out.substr(0, 200);
  // Printed on every call: what is kept is at most 32 KiB, its end, and a note says when it was cut.
  EXPECT_LE(out.size(), 32u * 1024u);
  const bool cut = printed["stdout_bytes"].get<std::uint64_t>() > out.size();
  ASSERT_EQ(printed["note"].is_string(), cut) << printed.dump().substr(0, 300);
  if (cut) {
    EXPECT_EQ(printed["note"].get<std::string>().rfind("cut: standard output: the last ", 0), 0u);
  }
}

TEST(BenchOnGpu, WritesNothing) {
  const auto o = bench(kernel_with_body("  (void)i;"));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.stderr_first_line.find("left as poison"), std::string::npos) << o.stderr_first_line;
}

TEST(BenchOnGpu, WritesOnlyPartOfTheOutput) {
  const auto o = bench(kernel_with_body("  if (i < n / 2) y[i] = x[i] * 2.0f;"));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.stderr_first_line.find("never written by the kernel"), std::string::npos) << o.stderr_first_line;
}

TEST(BenchOnGpu, WritesPastTheEnd) {
  const auto o = bench(kernel_with_body("  if (i <= n) y[i] = (i < n) ? x[i] * 2.0f : 0.0f;"));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.stderr_first_line.find("past the end of y"), std::string::npos) << o.stderr_first_line;
}

TEST(BenchOnGpu, WritesIntoItsInput) {
  const auto o = bench(kernel_with_body("  if (i < n) { y[i] = x[i] * 2.0f; const_cast<float*>(x)[i] = 0.0f; }"));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.stderr_first_line.find("wrote into its input x"), std::string::npos) << o.stderr_first_line;
}

TEST(BenchOnGpu, ProducesNan) {
  const auto o = bench(kernel_with_body("  if (i < n) y[i] = (i == 7) ? __int_as_float(0x7fffffff) : x[i] * 2.0f;"));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.stderr_first_line.find("(NaN)"), std::string::npos) << o.stderr_first_line;
}

TEST(BenchOnGpu, FaultsWithAnIllegalAddress) {
  const auto o = bench(kernel_with_body("  if (i < n) y[i + (1 << 28)] = 1.0f;"));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.result["status"], "crashed") << o.stderr_first_line;
  // Which error the driver names depends on where the stray address lands (seen on an H200:
  // CUDA_ERROR_ILLEGAL_ADDRESS in one run, CUDA_ERROR_INVALID_ADDRESS_SPACE in another).
  EXPECT_NE(o.stderr_first_line.find("the kernel failed on the device: CUDA_ERROR_"), std::string::npos)
      << o.stderr_first_line;
}

TEST(BenchOnGpu, NeverReturns) {
  const auto o = bench(kernel_with_body("  if (i < n) y[i] = x[i] * 2.0f;\n  while (i >= 0) { __nanosleep(1000); }"),
                       {"--timeout", "20"});
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.result["status"], "timed_out") << o.stderr_first_line;
}

TEST(BenchOnGpu, CachesItsResultAcrossCalls) {
  // Computes on the first call only: the re-check on fresh inputs after timing catches it.
  std::string source = kernel_with_body("  if (i < n && done[0] == 0) y[i] = x[i] * 2.0f;",
                                        "__device__ int done[1];\n__global__ void mark() { done[0] = 1; }\n");
  const std::string launch = "k<<<(N + 255) / 256, 256>>>(x, y, N); }";
  source.replace(source.find(launch), launch.size(), "k<<<(N + 255) / 256, 256>>>(x, y, N); mark<<<1, 1>>>(); }");
  const auto o = bench(source);
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.stderr_first_line.find("validation failed"), std::string::npos) << o.stderr_first_line;
}

TEST(BenchOnGpu, ReadsAnOutputNotDeclaredInout) {
  // y += 2x with y declared out: the poison turns into NaN, and kopt suggests inout(y).
  const auto o = bench(kernel_with_body("  if (i < n) y[i] += x[i] * 2.0f;"));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.stderr_first_line.find("// kopt: inout(y)"), std::string::npos) << o.stderr_first_line;
}

TEST(BenchOnGpu, CorrectInoutKernelPasses) {
  scratch_dir dir;
  const std::string body = R"(
// kopt: x[N] y[N] inout(y)
__global__ void axpy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 3.0f * x[i] + y[i];
}
extern "C" void solve(const float* x, float* y, int N) { axpy<<<(N + 255) / 256, 256>>>(x, y, N); }
)";
  const auto kernel = dir.write("axpy.cu", body);
  const auto reference = dir.write("axpy_ref.cu", body);
  const auto r = run_kopt({"bench", kernel.string(), "--ref", reference.string(), "--N=1000003", "--max-seconds", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
}

TEST(BenchOnGpu, WorkOnAnotherStreamIsCountedAndFlagged) {
  // Half the elements on the default stream, half on a stream of its own, no synchronisation:
  // both kernels are timed, and the result says two streams ran.
  const std::string source = R"(
// kopt: x[N] y[N]
__global__ void twice(const float* x, float* y, int begin, int end) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end) y[i] = x[i] * 2.0f;
}
extern "C" void solve(const float* x, float* y, int N) {
  static cudaStream_t side = nullptr;
  if (side == nullptr) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  const int half = N / 2;
  twice<<<(half + 255) / 256, 256>>>(x, y, 0, half);
  twice<<<(N - half + 255) / 256, 256, 0, side>>>(x, y, half, N);
}
)";
  const auto o = bench(source);
  EXPECT_EQ(o.exit_code, 0) << o.stderr_first_line;
  ASSERT_TRUE(testing::present(o.result, "kernel"));
  EXPECT_EQ(o.result["kernel"]["kernels_per_call"], 2);
  EXPECT_EQ(o.result["kernel"]["streams"], 2);
}

TEST(BenchOnGpu, WritesIntoTheOverAllocatedTail) {
  // The reference declares y with room for N + 256 elements and writes N: the tail must keep
  // its poison, and a kernel that writes it fails. (The problem is the reference's, so the
  // over-allocation is declared there.)
  scratch_dir dir;
  std::string over_allocating_reference = reference_source;
  const std::string annotation = "// kopt: x[N] y[N]";
  over_allocating_reference.replace(over_allocating_reference.find(annotation), annotation.size(), "// kopt: x[N] y[N+256]");
  const auto reference = dir.write("ref_tail.cu", over_allocating_reference);
  std::string source = kernel_with_body("  if (i < n + 256) y[i] = (i < n) ? x[i] * 2.0f : 1.0f;");
  source.replace(0, source.find('\n'), "// (no annotation: the reference's problem is used)");  // kernel_with_body's first line
  const std::string grid = "k<<<(N + 255) / 256";
  source.replace(source.find(grid), grid.size(), "k<<<(N + 511) / 256");
  const auto kernel = dir.write("k_tail.cu", source);
  const auto r = run_kopt({"bench", kernel.string(), "--ref", reference.string(), "--N=1000003", "--max-seconds", "1"});
  const std::string line = first_line(r.stderr_text);
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  EXPECT_NE(line.find("validation failed"), std::string::npos) << line;
  EXPECT_NE(line.find("out of bounds: y:"), std::string::npos) << line;
  EXPECT_NE(line.find("written outside the reference's extent"), std::string::npos) << line;
}

TEST(BenchOnGpu, AKernelDeclaringAnotherProblemThanTheReferenceFails) {
  // The problem belongs to the reference: a kernel that declares a larger y is refused.
  std::string source = kernel_with_body("  if (i < n) y[i] = x[i] * 2.0f;");
  source.replace(0, source.find('\n'), "// kopt: x[N] y[N+256]");
  const auto o = bench(source);
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.result["problem_source"], "reference");
  EXPECT_NE(o.stderr_first_line.find("problem mismatch: the kernel declares y[1000259]"), std::string::npos)
      << o.stderr_first_line;
}

TEST(BenchOnGpu, CannotLiveOffTheReferencesLeftovers) {
  // Writes y only on its first call. On the second seed the reference has already produced
  // the right answer (in its own buffers); the kernel's y is poisoned again, so it fails.
  std::string source = kernel_with_body("  if (i < n && calls[0] == 0) y[i] = x[i] * 2.0f;",
                                        "__device__ int calls[1];\n__global__ void count() { calls[0] += 1; }\n");
  const std::string launch = "k<<<(N + 255) / 256, 256>>>(x, y, N); }";
  source.replace(source.find(launch), launch.size(), "k<<<(N + 255) / 256, 256>>>(x, y, N); count<<<1, 1>>>(); }");
  const auto o = bench(source);
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.stderr_first_line.find("validation failed (seed 1)"), std::string::npos) << o.stderr_first_line;
  EXPECT_NE(o.stderr_first_line.find("left as poison"), std::string::npos) << o.stderr_first_line;
}

TEST(BenchOnGpu, VectorAddAgainstPythonReference) {
  const auto examples = testing::source_dir() / "examples";
  scratch_dir dir;
  const auto out = dir.path() / "r.json";
  const auto r = run_kopt({"bench", (examples / "vector_add.cu").string(), "--ref=" + (examples / "vector_add_ref.py").string(),
                           "--N=16777216", "--json-out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  std::printf("%s", r.stdout_text.c_str());
  const auto result = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(result["correctness"]["passed"], true);
  EXPECT_EQ(result["correctness"]["seeds"].size(), 3u);
  // The torch reference was timed by the same engine: CUPTI records, the same statistics.
  ASSERT_TRUE(testing::present(result, "reference")) << result.dump(1);
  EXPECT_EQ(result["reference"]["time_source"], result["kernel"]["time_source"]);
  EXPECT_GE(result["reference"]["sample_count"].get<int>(), 10);
  EXPECT_GT(result["reference"]["median_ms"].get<double>() * 1000, 30);
  EXPECT_EQ(result["reference_runner"]["torch"]["version"].get<std::string>().rfind("2.", 0), 0u);
  EXPECT_TRUE(testing::present(result, "speedup_vs_reference_ci95"));
  // The runner made every key's inputs itself, in kopt's buffers: the reference's process
  // neither made nor wrote any.
  EXPECT_FALSE(result["phases_s"]["reference"].contains("making_inputs")) << result["phases_s"].dump();
  EXPECT_TRUE(result["phases_s"]["reference"].contains("python_runner")) << result["phases_s"].dump();
  // The runner's sampling is shown as the reference's timing (at least the stopping rule's 0.1 s).
  EXPECT_GE(result["phases_s"]["reference"].value("timing", 0.0), 0.1) << result["phases_s"].dump();
}

// The outputs start as kopt's poison in the runner too: elements the reference leaves alone
// must be left alone by the kernel, and a reference that changes its input is told so.
TEST(BenchOnGpu, APythonReferencesPoisonAndInputsAreKoptsOwn) {
  scratch_dir dir;
  const auto vector_add = (testing::source_dir() / "examples" / "vector_add.cu").string();
  const auto half = dir.write("half_ref.py", "def reference(*, A, B, C, N, **_):\n    C[:N // 2].copy_(A[:N // 2] + B[:N // 2])\n");
  const auto r = run_kopt({"bench", vector_add, "--ref", half.string(), "--N=4096"});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  EXPECT_NE((r.stdout_text + r.stderr_text).find("out of bounds:"), std::string::npos) << r.stdout_text << r.stderr_text;

  const auto writes_input = dir.write("input_ref.py", "def reference(*, A, B, C, N, **_):\n    C.copy_(A + B)\n    A.zero_()\n");
  const auto w = run_kopt({"bench", vector_add, "--ref", writes_input.string(), "--N=4096"});
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_EQ(first_line(w.stderr_text), "kopt: error: the reference " + writes_input.string() +
                                           " wrote into A, which is not among the kernel's outputs (C): leave it "
                                           "unchanged (or make it an output)");
}

// A re-bench of the same problem takes the reference's timing from the last run and still
// compares the reference's outputs; --fresh-reference times it again. The cache lies outside
// the temporary folder, which the kernel's process may write (and so the cache may not).
TEST(BenchOnGpu, TheReferencesTimingIsKeptForTheNextBenchOfTheSameProblem) {
  const auto examples = testing::source_dir() / "examples";
  scratch_dir dir;
  std::filesystem::create_directories(dir.path() / "tmp");
  const std::map<std::string, std::string> env{{"TMPDIR", (dir.path() / "tmp").string()},
                                               {"KOPT_CACHE_DIR", (dir.path() / "cache").string()}};
  const auto bench_once = [&](const std::string& name, std::vector<std::string> extra) {
    const auto out = dir.path() / (name + ".json");
    std::vector<std::string> args = {"bench", (examples / "vector_add.cu").string(),
                                     "--ref=" + (examples / "vector_add_ref.py").string(), "--N=1048576",
                                     "--json-out", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_kopt(args, env);
    EXPECT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
    std::printf("%s", r.stdout_text.c_str());
    return std::filesystem::exists(out) ? nlohmann::json::parse(std::ifstream(out)) : nlohmann::json();
  };
  const auto first = bench_once("first", {});
  ASSERT_TRUE(first.is_object());
  EXPECT_EQ(first["reference_timing_cache"]["stored"], true) << first["reference_timing_cache"].dump();
  EXPECT_TRUE(first["phases_s"]["reference"].contains("python_runner"));

  const auto second = bench_once("second", {"--verbose"});
  ASSERT_TRUE(second.is_object());
  EXPECT_EQ(second["reference_timing_cache"]["from_cache"], true) << second["reference_timing_cache"].dump();
  EXPECT_EQ(second["reference"]["median_ms"], first["reference"]["median_ms"]);
  EXPECT_EQ(second["correctness"]["passed"], true);
  EXPECT_EQ(second["correctness"]["seeds"].size(), 3u) << "the reference's outputs are still made and compared";
  EXPECT_GE(second["timed_call_checks"]["checked"].get<int>(), 10);
  EXPECT_TRUE(testing::present(second, "speedup_vs_reference"));

  const auto fresh = bench_once("fresh", {"--fresh-reference"});
  ASSERT_TRUE(fresh.is_object());
  EXPECT_TRUE(fresh["reference_timing_cache"].is_null());
  EXPECT_GE(fresh["reference"]["sample_count"].get<int>(), 10);
}

TEST(BenchOnGpu, SoftmaxAgainstPythonReferenceInTheToolkitsFlagStyle) {
  const auto examples = testing::source_dir() / "examples";
  const auto r = run_kopt({"bench", (examples / "softmax_block.cu").string(), "--ref=" + (examples / "softmax_ref.py").string(),
                           "--rows=4096", "--cols=1024"});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  std::printf("%s", r.stdout_text.c_str());
  EXPECT_NE(r.stdout_text.find("speedup vs reference:"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("reference ran in Python: torch 2."), std::string::npos);
}

TEST(BenchOnGpu, PythonReferenceThatRaises) {
  scratch_dir dir;
  const auto ref = dir.write("bad_ref.py", "def reference(*, A, B, C, N, **_):\n    raise RuntimeError('no such op')\n");
  const auto r = run_kopt({"bench", (testing::source_dir() / "examples" / "vector_add.cu").string(), "--ref", ref.string(),
                           "--N=1024"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: the reference " + ref.string() + " raised RuntimeError: no such op");
  EXPECT_NE(r.stderr_text.find("Traceback (most recent call last)"), std::string::npos) << r.stderr_text;
}

TEST(BenchOnGpu, SanitizeRacecheckFindsASharedMemoryRace) {
  // Right answers, but every thread reads its neighbour's shared slot without a barrier in
  // between: racecheck reports the hazard and the run stops before timing.
  const std::string source = R"(
// kopt: x[N] y[N]
__global__ void k(const float* x, float* y, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  float other = s[(threadIdx.x + 1) % 256];
  (void)other;
  if (i < n) y[i] = x[i] * 2.0f + 0.0f * other;
}
extern "C" void solve(const float* x, float* y, int N) { k<<<(N + 255) / 256, 256>>>(x, y, N); }
)";
  const auto o = bench(source, {"--sanitize", "racecheck"});
  EXPECT_EQ(o.exit_code, 1) << o.stderr_first_line;
  EXPECT_NE(o.stderr_first_line.find("compute-sanitizer racecheck found"), std::string::npos) << o.stderr_first_line;
  ASSERT_TRUE(testing::present(o.result, "sanitizer"));
  EXPECT_GT(o.result["sanitizer"]["errors"].get<int>(), 0);
  EXPECT_FALSE(testing::present(o.result, "kernel"));  // nothing was timed
}

TEST(BenchOnGpu, SanitizeMemcheckCleanKernelGoesOnToTiming) {
  const auto o = bench(kernel_with_body("  if (i < n) y[i] = x[i] * 2.0f;"), {"--sanitize", "memcheck"});
  EXPECT_EQ(o.exit_code, 0) << o.stderr_first_line;
  ASSERT_TRUE(testing::present(o.result, "sanitizer"));
  EXPECT_EQ(o.result["sanitizer"]["status"], "clean");
  EXPECT_EQ(o.result["sanitizer"]["errors"], 0);
  EXPECT_TRUE(testing::present(o.result, "kernel"));
}

TEST(BenchOnGpu, SanitizeMemcheckFindsASharedMemoryOverrun) {
  const std::string source = R"(
// kopt: x[N] y[N]
__global__ void k(const float* x, float* y, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  volatile float* slot = s;  // volatile: the store is kept although nothing reads it back
  slot[threadIdx.x * 64] = i < n ? x[i] : 0.0f;
  if (i < n) y[i] = x[i] * 2.0f;
}
extern "C" void solve(const float* x, float* y, int N) { k<<<(N + 255) / 256, 256>>>(x, y, N); }
)";
  const auto o = bench(source, {"--sanitize", "memcheck"});
  EXPECT_EQ(o.exit_code, 1) << o.stderr_first_line;
  EXPECT_NE(o.stderr_first_line.find("compute-sanitizer memcheck found"), std::string::npos) << o.stderr_first_line;
}

}  // namespace
}  // namespace kopt
