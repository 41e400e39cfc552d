// Whole-program tests of `kopt inspect`: the real binary on small kernel files.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/kopt_process.h"

namespace kopt {
namespace {
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;
using testing::source_dir;

constexpr const char* vector_add =
    "// kopt: A[N] B[N] C[N]\n"
    "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}\n";

// Runs inspect on a kernel written to a scratch folder; returns the process result.
class InspectCommand : public ::testing::Test {
 protected:
  process_result inspect(const std::string& source, std::vector<std::string> args,
                         const std::string& name = "kernel.cu") {
    const auto file = m_dir.write(name, source);
    args.insert(args.begin(), {"inspect", file.string()});
    return run_kopt(args);
  }

  // Exit code 2 and the first line of stderr, which must name the problem.
  std::string usage_error(const std::string& source, const std::vector<std::string>& args) {
    const auto r = inspect(source, args);
    EXPECT_EQ(r.exit_code, 2) << r.stdout_text << r.stderr_text;
    EXPECT_TRUE(r.stdout_text.empty()) << r.stdout_text;
    return first_line(r.stderr_text);
  }

  std::string path(const std::string& name) const { return (m_dir.path() / name).string(); }

  scratch_dir m_dir;
};

TEST_F(InspectCommand, HumanOutputShowsParametersSizesAndMemory) {
  const auto r = inspect(vector_add, {"--N=1024"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string& out = r.stdout_text;
  EXPECT_NE(out.find("backend  cuda (file extension .cu)"), std::string::npos) << out;
  EXPECT_NE(out.find("solve()  line 2: 3 buffers, 1 scalars"), std::string::npos) << out;
  EXPECT_NE(out.find("#  name  type          role    elements  bytes     values"), std::string::npos) << out;
  EXPECT_NE(out.find("A     const float*  in      1,024     4.00 KiB  uniform [-1, 1) (default)  "
                     "annotation A[N] (line 1)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("C     float*        out     1,024     4.00 KiB  poison"), std::string::npos) << out;
  EXPECT_NE(out.find("N     int           scalar"), std::string::npos) << out;
  EXPECT_NE(out.find("device memory  12.00 KiB (12,288 bytes) in 3 buffers"), std::string::npos) << out;
}

TEST_F(InspectCommand, QuietIsOneLineAndVerboseSaysWhereEachBufferCameFrom) {
  const auto quiet = inspect(vector_add, {"--N=1024", "--quiet"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.stderr_text;
  EXPECT_EQ(quiet.stdout_text, "kernel.cu: cuda, 3 buffers, 1 scalars, 12.00 KiB of device memory\n");
  const auto plain = inspect(vector_add, {"--N=1024"});
  const auto verbose = inspect(vector_add, {"--N=1024", "-v"});
  ASSERT_EQ(verbose.exit_code, 0) << verbose.stderr_text;
  EXPECT_EQ(verbose.stdout_text.rfind(plain.stdout_text, 0), 0u) << "verbose adds to the plan:\n" << verbose.stdout_text;
  EXPECT_NE(verbose.stdout_text.find("  A: in from const pointer; 1,024 elements from annotation A[N] (line 1); values "
                                     "by default\n"),
            std::string::npos)
      << verbose.stdout_text;
  EXPECT_NE(verbose.stdout_text.find("  C: out from non-const pointer"), std::string::npos) << verbose.stdout_text;
}

// A mistyped option that would otherwise read as a dimension gets the option it resembles.
TEST_F(InspectCommand, AMistypedOptionIsNotTakenForADimension) {
  EXPECT_EQ(usage_error(vector_add, {"--N=4", "--backendd", "cuda"}),
            "kopt: error: unknown option --backendd for kopt inspect; did you mean --backend? (a dimension is written "
            "--backendd=NUMBER, or --dim backendd=NUMBER; kopt inspect --help)");
  EXPECT_EQ(usage_error(vector_add, {"--N=4", "--jsonn"}).rfind(
                "kopt: error: unknown option --jsonn for kopt inspect; did you mean --json?", 0),
            0u);
}

TEST_F(InspectCommand, DefinitionsPickTheVariantOfSolveThatIsPlanned) {
  const std::string variants =
      "// kopt: A[N] B[N] C[N]\n"
      "#ifdef HALF_PRECISION\n"
      "extern \"C\" void solve(const __half* A, const __half* B, __half* C, int N) {}\n"
      "#else\n"
      "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}\n"
      "#endif\n";
  const auto plain = inspect(variants, {"--N=1024", "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.stderr_text;
  EXPECT_EQ(nlohmann::json::parse(plain.stdout_text)["solve"]["parameters"][0]["element_type"]["name"], "float32");
  const auto half = inspect(variants, {"--N=1024", "-DHALF_PRECISION", "--json"});
  ASSERT_EQ(half.exit_code, 0) << half.stderr_text;
  EXPECT_EQ(nlohmann::json::parse(half.stdout_text)["solve"]["parameters"][0]["element_type"]["name"], "float16");
  // What nvcc would hand to a shell is refused before anything is read.
  EXPECT_EQ(usage_error(variants, {"--N=1024", "-DX=$(touch /tmp/kopt-inspect-marker)"})
                .rfind("kopt: error: -DX: the value holds '$', which nvcc would hand to a shell", 0),
            0u);
}

TEST_F(InspectCommand, JsonOutput) {
  const auto r = inspect(vector_add, {"--N", "1000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto j = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(j["schema"], "kopt.inspect/v1");
  EXPECT_EQ(j["backend"], "cuda");
  EXPECT_EQ(j["dimensions"]["N"], 1000);
  ASSERT_EQ(j["solve"]["parameters"].size(), 4u);
  EXPECT_EQ(j["solve"]["parameters"][2]["name"], "C");
  EXPECT_EQ(j["solve"]["parameters"][2]["role"], "out");
  EXPECT_EQ(j["solve"]["parameters"][2]["elements"], 1000);
  EXPECT_EQ(j["solve"]["parameters"][2]["bytes"], 4000);
  EXPECT_EQ(j["solve"]["parameters"][3]["given_as"], "--N=1000");
  EXPECT_EQ(j["total_bytes"], 12000);
}

// The tune() parameters a kernel declares, and how many configurations its restrictions leave
// at the dimensions given: in the text and in the JSON's tune object.
TEST_F(InspectCommand, ListsTheTuneSpaceAndWhatTheRestrictionsLeaveAtTheseDimensions) {
  const std::string tiled =
      "// kopt: A[N] B[N] C[N]\n"
      "// kopt: tune(BLOCK, 64, 128, 256) tune(VEC, 1, 2, 4)\n"
      "// kopt: restrict(BLOCK * VEC <= 512) restrict(N % (BLOCK * VEC) == 0)\n"
      "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}\n";
  const auto text = inspect(tiled, {"--N=1024"});
  ASSERT_EQ(text.exit_code, 0) << text.stderr_text;
  EXPECT_NE(text.stdout_text.find("tune     BLOCK in {64, 128, 256}, VEC in {1, 2, 4}: 9 configurations, 8 "
                                  "allowed at these dimensions"),
            std::string::npos)
      << text.stdout_text;
  EXPECT_NE(text.stdout_text.find("restrict(BLOCK * VEC <= 512) (line 3)"), std::string::npos)
      << text.stdout_text;
  const auto as_json = inspect(tiled, {"--N=1152", "--json"});
  ASSERT_EQ(as_json.exit_code, 0) << as_json.stderr_text;
  const nlohmann::json tune = nlohmann::json::parse(as_json.stdout_text)["tune"];
  EXPECT_EQ(tune["configurations"], 9);
  // 1152 = 2^7 * 9: divisible by 64 and 128 only, each with VEC 1 (and 64 with VEC 2).
  EXPECT_EQ(tune["allowed"], 3) << tune.dump();
  EXPECT_EQ(tune["parameters"][0]["name"], "BLOCK");
  EXPECT_EQ(tune["restrictions"][1], "N % (BLOCK * VEC) == 0");
  const auto plain = inspect(vector_add, {"--N=1024", "--json"});
  EXPECT_FALSE(nlohmann::json::parse(plain.stdout_text).contains("tune"))
      << "no tune() declared, no tune object";
}

TEST_F(InspectCommand, DimensionStylesAndPtrSize) {
  const std::string unannotated =
      "extern \"C\" void solve(const float* x, float* y, int M, int N, float alpha) {}\n";
  const auto r = inspect(unannotated, {"--M", "3", "--dim", "N=5", "--alpha=-0.5", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto j = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(j["solve"]["parameters"][0]["elements"], 15);
  EXPECT_EQ(j["solve"]["parameters"][0]["size_rule"]["kind"], "default_two_largest");
  EXPECT_EQ(j["solve"]["parameters"][3]["given_as"], "--dim N=5");
  EXPECT_EQ(j["dimensions"]["alpha"], -0.5);

  const auto sized = inspect(unannotated, {"--M=3", "--N=5", "--alpha=1", "--ptr-size", "64", "--json"});
  ASSERT_EQ(sized.exit_code, 0) << sized.stderr_text;
  EXPECT_EQ(nlohmann::json::parse(sized.stdout_text)["solve"]["parameters"][1]["elements"], 64);
}

TEST_F(InspectCommand, DimensionWithItsValueBeforeTheKernelPath) {
  // `--N 5 k.cu`: 5 is N's value, not the kernel (CLI11 alone would take it as the path).
  const auto file = m_dir.write("before.cu", vector_add);
  const auto r = run_kopt({"inspect", "--N", "5", file.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(nlohmann::json::parse(r.stdout_text)["dimensions"]["N"], 5);
}

TEST_F(InspectCommand, ScalarNamedLikeAKoptFlag) {
  const std::string source = "extern \"C\" void solve(float* y, int N, int seed) {}\n";
  EXPECT_EQ(usage_error(source, {"--N=4", "--seed=3"}),
            "kopt: error: solve() parameter `seed` has the same name as kopt's --seed flag; set "
            "it with --dim seed=VALUE");
  const auto r = inspect(source, {"--N=4", "--dim", "seed=3"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("solve() parameter seed shares its name with kopt's --seed flag; "
                               "it was set through --dim seed=3"),
            std::string::npos)
      << r.stdout_text;
}

TEST_F(InspectCommand, AfterTheSeparatorAScalarNamedLikeAFlagIsADimensionAndADashFileIsAFile) {
  m_dir.write("-odd.cu", "extern \"C\" void solve(float* y, int N, int seed) {}\n");
  const auto r = run_kopt({"inspect", "--json", "--", "-odd.cu", "--N=4", "--seed=3"}, {}, m_dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto j = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(j["dimensions"]["N"], 4);
  EXPECT_EQ(j["dimensions"]["seed"], 3);
}

TEST_F(InspectCommand, AHugeAnnotationIsNotEchoedWhole) {
  std::string sum;
  for (int i = 0; i < 200000; ++i) sum += "N+";
  const auto file = m_dir.write("huge.cu", "// kopt: x[" + sum + "]]\nextern \"C\" void solve(const float* x, float* y, int N) {}\n");
  const auto r = run_kopt({"inspect", file.string(), "--N=4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_LT(first_line(r.stderr_text).size(), 1100u) << first_line(r.stderr_text).size();
  EXPECT_NE(first_line(r.stderr_text).find("bytes cut ...]"), std::string::npos) << first_line(r.stderr_text).substr(0, 300);
}

TEST_F(InspectCommand, TritonModule) {
  const auto r = inspect("def setup(N, seed=0):\n    pass\n", {"--N=4096", "--json"}, "k.py");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto j = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(j["backend"], "triton");
  EXPECT_TRUE(j["solve"].is_null());
  EXPECT_EQ(j["dimensions"]["N"], "4096");
}

TEST_F(InspectCommand, MissingFile) {
  const auto r = run_kopt({"inspect", path("absent.cu"), "--N=4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: kernel source not found: " + path("absent.cu") + " (check the path)");
}

TEST_F(InspectCommand, SignatureErrors) {
  EXPECT_EQ(usage_error("void helper(int n) {}\n", {}),
            "kopt: error: no extern \"C\" void solve(...) found in " + path("kernel.cu") +
                ": kopt calls that function; declare it with C linkage");
  EXPECT_EQ(usage_error("extern \"C\" void solve(const float4* x, int N) {}\n", {"--N=4"}),
            "kopt: error: " + path("kernel.cu") + ":1: solve() parameter 'x' has type 'const "
            "float4*', which kopt does not know: use one of the supported element types");
}

TEST_F(InspectCommand, UnknownTypeListsSupportedTypesAfterTheHeadline) {
  const auto r = inspect("extern \"C\" void solve(const float4* x, int N) {}\n", {"--N=4"});
  EXPECT_NE(r.stderr_text.find("__nv_bfloat16"), std::string::npos) << r.stderr_text;
}

TEST_F(InspectCommand, DimensionErrors) {
  EXPECT_EQ(usage_error(vector_add, {}),
            "kopt: error: missing dimension: solve() parameter N has no value; pass --N=VALUE");
  EXPECT_EQ(usage_error(vector_add, {"--N=4", "--Q=2"}),
            "kopt: error: unknown dimension --Q=2: solve() has no scalar parameter Q; its scalars "
            "are N");
  EXPECT_EQ(usage_error(vector_add, {"--N=4.5"}),
            "kopt: error: bad value for dimension N: '4.5' is not a whole number (solve() declares "
            "'int N'); pass e.g. --N=4096");
  EXPECT_EQ(usage_error(vector_add, {"--N=4", "stray"}),
            "kopt: error: unexpected argument 'stray': dimensions are written --NAME=VALUE (see "
            "--help for this command's options)");
}

TEST_F(InspectCommand, AnnotationErrors) {
  EXPECT_EQ(usage_error("// kopt: A[N] D[N]\n"
                        "extern \"C\" void solve(const float* A, float* C, int N) {}\n",
                        {"--N=4"}),
            "kopt: error: " + path("kernel.cu") + ":1: kopt annotation names 'D', which is not a "
            "parameter of solve(): its buffers are A, C");
  EXPECT_EQ(usage_error("// kopt: A[N] C[N*] \n"
                        "extern \"C\" void solve(const float* A, float* C, int N) {}\n",
                        {"--N=4"}),
            "kopt: error: " + path("kernel.cu") + ":1: kopt annotation C[N*]: expected a number, "
            "a name or '(' after '*'");
  EXPECT_EQ(usage_error("// kopt: out(A)\n"
                        "extern \"C\" void solve(const float* A, float* C, int N) {}\n",
                        {"--N=4"}),
            "kopt: error: " + path("kernel.cu") + ":1: kopt annotation declares A out, but "
            "solve() takes it as 'const float*', so the kernel cannot write it: drop the const "
            "or the annotation");
}

TEST_F(InspectCommand, SizeOverflow) {
  EXPECT_EQ(usage_error("// kopt: A[M*K]\n"
                        "extern \"C\" void solve(float* A, long long M, long long K) {}\n",
                        {"--M=4294967296", "--K=4294967296"}),
            "kopt: error: " + path("kernel.cu") + ":1: kopt annotation A[M*K]: integer overflow: "
            "4294967296 * 4294967296 does not fit in int64 with M=4294967296, K=4294967296: use "
            "smaller dimensions or fix the expression");
}

TEST_F(InspectCommand, BackendOverrideThatCannotApply) {
  EXPECT_EQ(usage_error(vector_add, {"--N=4", "--backend", "triton"}),
            "kopt: error: --backend=triton needs a .py module with setup() and run_kernel(), but " +
                path("kernel.cu") + " is a CUDA source: drop --backend or pass --backend=cuda");
}

// Every bundled example inspects cleanly with the dimensions its README suggests.
struct example_case {
  const char* file;
  std::vector<std::string> dims;
};

// Names the case by its file in test listings.
void PrintTo(const example_case& c, std::ostream* os) { *os << c.file; }

class InspectExample : public ::testing::TestWithParam<example_case> {};

TEST_P(InspectExample, ExitsZeroWithEveryBufferAnnotated) {
  std::vector<std::string> args = {"inspect", (source_dir() / "examples" / GetParam().file).string(),
                                   "--json"};
  args.insert(args.end(), GetParam().dims.begin(), GetParam().dims.end());
  const auto r = run_kopt(args);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto j = nlohmann::json::parse(r.stdout_text);
  for (const auto& p : j["solve"]["parameters"]) {
    if (p["kind"] == "buffer") {
      EXPECT_EQ(p["size_rule"]["kind"], "annotation") << p["name"];
    }
  }
}

const std::vector<example_case>& example_cases() {
  static const std::vector<example_case> cases = {
      {"vector_add.cu", {"--N=16777216"}},
      {"vector_add_ref.cu", {"--N=16777216"}},
      {"softmax_naive.cu", {"--rows=4096", "--cols=1024"}},
      {"softmax_block.cu", {"--rows=4096", "--cols=1024"}},
      {"matmul_naive.cu", {"--M=4096", "--N=4096", "--K=4096"}},
      {"cutlass_gemm.cu", {"--M=4096", "--N=4096", "--K=4096"}},
      {"axpy_inout.cu", {"--N=16777216", "--alpha=2.5"}},
      {"histogram.cu", {"--N=16777216", "--num_bins=256"}},
  };
  return cases;
}

// A new example must join the table above, so that it is inspected too.
TEST(InspectExamples, EveryExampleHasATestCase) {
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() / "examples")) {
    if (entry.path().extension() != ".cu") continue;
    const std::string name = entry.path().filename().string();
    const bool listed = std::any_of(example_cases().begin(), example_cases().end(),
                                    [&](const example_case& c) { return name == c.file; });
    EXPECT_TRUE(listed) << name << " has no entry in example_cases()";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Examples, InspectExample, ::testing::ValuesIn(example_cases()),
    [](const auto& case_info) {
      const std::string file = case_info.param.file;
      return file.substr(0, file.size() - 3);
    });

TEST_F(InspectCommand, HostileAnnotationsAreErrorsNotCrashes) {
  const std::string deep = "// kopt: A[" + std::string(10'000, '(') + "N" + std::string(10'000, ')') + "] B[N] C[N]\n" +
                           "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}\n";
  const std::string line = usage_error(deep, {"--N=4"});
  EXPECT_NE(line.find("the expression nests more than 200 levels deep"), std::string::npos) << line;
  std::string terms = "N";
  for (int i = 0; i < 50'000; ++i) terms += "+N";
  const std::string wide = "// kopt: A[" + terms + "] B[N] C[N]\n" +
                           "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}\n";
  EXPECT_NE(usage_error(wide, {"--N=4"}).find("more than 10000 terms"), std::string::npos);
}

TEST_F(InspectCommand, AFileNameThatIsNotUtf8StillGivesJson) {
  const auto r = inspect(vector_add, {"--N=4", "--json"}, "k\xe9rnel.cu");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto document = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(document["schema"], "kopt.inspect/v1");
}

TEST_F(InspectCommand, AFifoIsRefusedAtOnce) {
  const std::string fifo = path("pipe.cu");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto r = run_kopt({"inspect", fifo, "--N=4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: kernel source is not a regular file (a FIFO, device or socket): " + fifo + "; give kopt a file");
}

}  // namespace
}  // namespace kopt
