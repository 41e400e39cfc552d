#include "toolkit_commands.h"

#include "support/kopt_process.h"

namespace kopt::testing {

namespace fs = std::filesystem;

void copy_toolkit_examples(const fs::path& work) {
  for (const char* name : {"matmul_naive.cu", "matmul_ref.py", "triton_matmul.py", "triton_matmul_ref.py",
                           "cutlass_gemm.cu", "cutlass_gemm_ref.py"}) {
    fs::copy_file(source_dir() / "examples" / name, work / name, fs::copy_options::overwrite_existing);
  }
}

std::vector<toolkit_command> toolkit_readme_commands(const fs::path& work) {
  const auto at = [&](const char* name) { return (work / name).string(); };
  const std::vector<std::string> dims = {"--M=512", "--N=512", "--K=512"};
  const auto with_dims = [&](std::vector<std::string> args) {
    args.insert(args.end(), dims.begin(), dims.end());
    return args;
  };
  return {
      {"benchmark only, no reference", with_dims({"bench", at("matmul_naive.cu")})},
      {"correctness, benchmark and speedup", with_dims({"bench", at("matmul_naive.cu"), "--ref=" + at("matmul_ref.py")})},
      {"Triton", with_dims({"bench", at("triton_matmul.py"), "--backend=triton", "--ref=" + at("triton_matmul_ref.py")})},
      {"CUDA loop, 3 iterations",
       with_dims({"loop", at("matmul_naive.cu"), "--ref=" + at("matmul_ref.py"), "--max-iterations=3"})},
      {"CUTLASS loop, 3 iterations",
       with_dims({"loop", at("cutlass_gemm.cu"), "--backend=cutlass", "--ref=" + at("cutlass_gemm_ref.py"),
                  "--max-iterations=3"})},
      {"Triton loop, 3 iterations",
       with_dims({"loop", at("triton_matmul.py"), "--backend=triton", "--ref=" + at("triton_matmul_ref.py"),
                  "--max-iterations=3"})},
      {"environment check only", {"loop", at("matmul_naive.cu"), "--max-iterations=1", "--preflight-only"}},
  };
}

}  // namespace kopt::testing
