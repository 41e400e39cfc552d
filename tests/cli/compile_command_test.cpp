// Whole-program tests of `kopt compile`: the real binary, the real nvcc.
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/kopt_process.h"

namespace kopt {
namespace {
using testing::first_line;
using testing::run_kopt;
using testing::scratch_dir;
using testing::source_dir;
namespace fs = std::filesystem;

std::string example(const std::string& name) { return (source_dir() / "examples" / name).string(); }

class CompileExample : public ::testing::TestWithParam<std::string> {};

// Every bundled example compiles (CUTLASS included) and reports its kernels.
TEST_P(CompileExample, BuildsAndReportsResources) {
  const auto r = run_kopt({"compile", example(GetParam()), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto result = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(result["schema"], "kopt.compile/v2");
  EXPECT_EQ(result["status"], "built");
  EXPECT_EQ(result["arch"], "sm_90a");
  EXPECT_GE(result["kernels"].size(), 1u);
  for (const auto& kernel : result["kernels"]) {
    EXPECT_GT(kernel["registers_per_thread"].get<int>(), 0) << kernel["name"];
    EXPECT_EQ(kernel["spill_store_bytes"].get<int>(), 0) << kernel["name"];
  }
  const std::string expected_backend = GetParam() == "cutlass_gemm.cu" ? "cutlass" : "cuda";
  EXPECT_EQ(result["backend"], expected_backend);
}

INSTANTIATE_TEST_SUITE_P(Examples, CompileExample,
                         ::testing::Values("vector_add.cu", "vector_add_ref.cu", "softmax_naive.cu",
                                           "softmax_block.cu", "matmul_naive.cu", "axpy_inout.cu",
                                           "histogram.cu", "cutlass_gemm.cu"),
                         [](const auto& param_info) {
                           return param_info.param.substr(0, param_info.param.size() - 3);
                         });

TEST(CompileCommand, SecondCompileIsACacheHit) {
  scratch_dir cache;
  const std::map<std::string, std::string> env = {{"KOPT_CACHE_DIR", cache.path().string()}};
  const auto first = run_kopt({"compile", example("vector_add.cu")}, env);
  ASSERT_EQ(first.exit_code, 0) << first.stderr_text;
  EXPECT_NE(first.stdout_text.find("cache:   miss"), std::string::npos) << first.stdout_text;
  const auto second = run_kopt({"compile", example("vector_add.cu")}, env);
  ASSERT_EQ(second.exit_code, 0);
  EXPECT_NE(second.stdout_text.find("cache:   hit"), std::string::npos) << second.stdout_text;
  EXPECT_NE(second.stdout_text.find("vector_add_kernel"), std::string::npos) << second.stdout_text;
}

TEST(CompileCommand, CompileErrorIsExitOneWithCompilerMessages) {
  scratch_dir dir;
  const auto source = dir.write("bad.cu", "extern \"C\" void solve(float* x) { undefined_call(x); }\n");
  const auto r = run_kopt({"compile", source.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: compile failed: " + source.string() + ": nvcc exit code 2 (compiler output follows)");
  EXPECT_NE(r.stderr_text.find("identifier \"undefined_call\" is undefined"), std::string::npos);
}

TEST(CompileCommand, ASourceThatExportsNoSolveIsTheKernelsFailure) {
  scratch_dir dir;
  for (const char* text : {"extern \"C\" void solve(float* x, int n);\n__global__ void k(float* x) {}\n",
                           "__global__ void k(float* x) {}\nvoid solve(float* x) { k<<<1, 1>>>(x); }\n"}) {
    const auto source = dir.write("nosolve.cu", text);
    const auto r = run_kopt({"compile", source.string(), "--json"});
    EXPECT_EQ(r.exit_code, 1) << text;
    EXPECT_NE(r.stderr_text.find("nosolve.cu exports no solve(): define extern \"C\" void solve(...)"),
              std::string::npos)
        << r.stderr_text;
  }
}

TEST(CompileCommand, OutputWritesACopyOfTheLibrary) {
  scratch_dir dir;
  const auto target = dir.path() / "vector_add.so";
  const auto r = run_kopt({"compile", example("vector_add.cu"), "-o", target.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto document = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(document["output"], target.string());
  EXPECT_EQ(fs::file_size(target), fs::file_size(document["library"].get<std::string>()));
  const auto nowhere = run_kopt({"compile", example("vector_add.cu"), "-o", (dir.path() / "no/such/x.so").string()});
  EXPECT_EQ(nowhere.exit_code, 2);
  EXPECT_EQ(first_line(nowhere.stderr_text).rfind("kopt: error: cannot write -o ", 0), 0u) << nowhere.stderr_text;
}

TEST(CompileCommand, DefinesReachTheCompiler) {
  scratch_dir dir;
  const auto source = dir.write("k.cu",
                                "#ifndef TILE\n#error TILE must be defined\n#endif\n"
                                "__global__ void k(float* x) { x[threadIdx.x] = TILE; }\n"
                                "extern \"C\" void solve(float* x) { k<<<1, 32>>>(x); }\n");
  EXPECT_EQ(run_kopt({"compile", source.string()}).exit_code, 1);
  const auto r = run_kopt({"compile", source.string(), "-DTILE=64", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto command = nlohmann::json::parse(r.stdout_text)["command"];
  EXPECT_NE(std::find(command.begin(), command.end(), "-DTILE=64"), command.end());
}

TEST(CompileCommand, MissingFileIsAUsageError) {
  const auto r = run_kopt({"compile", "/nonexistent/kernel.cu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text), "kopt: error: kernel file not found: /nonexistent/kernel.cu (check the path)");
}

TEST(CompileCommand, MissingNvccIsAUsageError) {
  const auto r = run_kopt({"compile", example("vector_add.cu"), "--nvcc-bin", "/nonexistent/nvcc"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: nvcc not found at --nvcc-bin=/nonexistent/nvcc: pass the path of an existing nvcc");
}

TEST(CompileCommand, AProgramThatIsNotNvccIsRefused) {
  // /bin/true exits 0 and prints nothing: before, kopt reported a library that did not exist.
  for (const char* program : {"/bin/true", "/bin/false"}) {
    const auto r = run_kopt({"compile", example("vector_add.cu"), "--nvcc-bin", program});
    EXPECT_EQ(r.exit_code, 2) << program;
    EXPECT_EQ(first_line(r.stderr_text).rfind(fmt::format("kopt: error: --nvcc-bin={} is not nvcc: {}: `--version` exit "
                                                          "code ",
                                                          program, program),
                                              0),
              0u)
        << first_line(r.stderr_text);
  }
}

TEST(CompileCommand, CutlassHeadersNotFoundSaysWhereItLooked) {
  const auto r = run_kopt({"compile", example("cutlass_gemm.cu")},
                          {{"CUTLASS_PATH", "/nonexistent/cutlass"}, {"KOPT_PYTHON", "/bin/false"}});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: CUTLASS headers not found: set CUTLASS_PATH to a CUTLASS checkout or "
            "`pip install nvidia-cutlass`");
  EXPECT_NE(r.stderr_text.find("/nonexistent/cutlass/include (CUTLASS_PATH)"), std::string::npos);
}

TEST(CompileCommand, TritonModuleIsRefused) {
  scratch_dir dir;
  const auto module = dir.write("k.py", "def setup(**dims): pass\ndef run_kernel(**kw): pass\n");
  const auto r = run_kopt({"compile", module.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(first_line(r.stderr_text).find("is a Triton module"), std::string::npos);
}

TEST(CompileCommand, BadArchIsAUsageError) {
  const auto r = run_kopt({"compile", example("vector_add.cu"), "--arch", "hopper"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.stderr_text),
            "kopt: error: unknown --arch 'hopper': write sm_XY, e.g. sm_90a for H100/H200 or sm_80 for A100");
}

// nvcc hands parts of its command line to a shell: a path or a -D value that a user chose must
// never reach it. Each place holds a command that would create a marker file if it ran.
TEST(CompileCommand, NoUserStringReachesAShell) {
  // Each place holds `$(touch ${KOPT_MARKER}_PLACE)`: a shell that expanded it would create
  // the marker file beside $KOPT_MARKER, wherever nvcc ran it. (kopt 8ccc9df created the
  // folder's, the file's and the define's.)
  scratch_dir dir;
  const std::map<std::string, std::string> env = {{"KOPT_MARKER", (dir.path() / "ran").string()}};
  const fs::path folder = dir.path() / "dir$(touch ${KOPT_MARKER}_folder)`touch ${KOPT_MARKER}_tick`";
  fs::create_directories(folder);
  const std::string body = "#include \"local.h\"\n__global__ void k(float* y) { y[0] = LOCAL_VALUE; }\n"
                           "extern \"C\" void solve(float* y, int N) { k<<<1, 1>>>(y); }\n";
  std::ofstream(folder / "local.h") << "#define LOCAL_VALUE 1.0f\n";
  const fs::path kernel = folder / "k$(touch ${KOPT_MARKER}_file).cu";
  std::ofstream(kernel) << body;
  const auto built = run_kopt({"compile", kernel.string(), "--json"}, env);
  EXPECT_EQ(built.exit_code, 0) << built.stderr_text;
  const auto refused = run_kopt({"compile", kernel.string(), "-DX=$(touch ${KOPT_MARKER}_define)"}, env);
  EXPECT_EQ(refused.exit_code, 2) << refused.stderr_text;
  EXPECT_EQ(first_line(refused.stderr_text),
            "kopt: error: -DX: the value holds '$', which nvcc would hand to a shell to expand; kopt refuses it "
            "(write the value without $, `, \\ or line breaks)");
  const auto bad_name = run_kopt({"compile", kernel.string(), "-D$(touch ${KOPT_MARKER}_name)=1"}, env);
  EXPECT_EQ(bad_name.exit_code, 2) << bad_name.stderr_text;
  for (const char* place : {"folder", "tick", "file", "define", "name"}) {
    EXPECT_FALSE(fs::exists(dir.path() / (std::string("ran_") + place))) << "the " << place << "'s command ran";
  }
}

TEST(CompileCommand, CompilerMessagesNameTheUsersFile) {
  scratch_dir dir;
  const auto source = dir.write("named.cu", "extern \"C\" void solve(float* x) {\n  undefined_call(x);\n}\n");
  const auto r = run_kopt({"compile", source.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.stderr_text.find(source.string() + "(2)"), std::string::npos) << r.stderr_text;
}

// nvcc's warnings are shown as a compiler shows them, and kept in --json (a cache hit replays
// the build's); -v adds the command and all nvcc printed.
TEST(CompileCommand, WarningsAreShownAndVerboseAddsTheCommand) {
  scratch_dir dir;
  scratch_dir cache;
  const std::map<std::string, std::string> env = {{"KOPT_CACHE_DIR", cache.path().string()}};
  const auto source = dir.write("warn.cu",
                                "__global__ void k(float* x) { int unused = 0; x[0] = 1.0f; }\n"
                                "extern \"C\" void solve(float* x) { k<<<1, 1>>>(x); }\n");
  const auto plain = run_kopt({"compile", source.string()}, env);
  ASSERT_EQ(plain.exit_code, 0) << plain.stderr_text;
  EXPECT_NE(plain.stdout_text.find("warning #177-D: variable \"unused\""), std::string::npos) << plain.stdout_text;
  EXPECT_EQ(plain.stdout_text.find("nvcc command:"), std::string::npos) << plain.stdout_text;

  const auto verbose = run_kopt({"compile", source.string(), "-v"}, env);
  ASSERT_EQ(verbose.exit_code, 0) << verbose.stderr_text;
  EXPECT_NE(verbose.stdout_text.find("cache:   hit"), std::string::npos) << verbose.stdout_text;
  EXPECT_NE(verbose.stdout_text.find("warning #177-D"), std::string::npos) << verbose.stdout_text;
  EXPECT_NE(verbose.stdout_text.find("nvcc command: "), std::string::npos) << verbose.stdout_text;
  EXPECT_NE(verbose.stdout_text.find("ptxas info"), std::string::npos) << verbose.stdout_text;

  const auto json = run_kopt({"compile", source.string(), "--json"}, env);
  ASSERT_EQ(json.exit_code, 0) << json.stderr_text;
  const auto document = nlohmann::json::parse(json.stdout_text);
  ASSERT_EQ(document["warnings"].size(), 1u) << document.dump();
  EXPECT_NE(document["warnings"][0].get<std::string>().find("unused"), std::string::npos);

  const auto quiet = run_kopt({"compile", source.string(), "-q"}, env);
  EXPECT_EQ(quiet.stdout_text.find("warning"), std::string::npos) << quiet.stdout_text;
}

}  // namespace
}  // namespace kopt
