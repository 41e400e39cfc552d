#include "env/ncu_probe.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/hash.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "tools/ncu_permission.h"

namespace kopt::env {
namespace fs = std::filesystem;

namespace {

constexpr const char* probe_source = R"CU(
#include <cstdio>
#include <cuda_runtime.h>
__global__ void kopt_ncu_probe(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 2.0f + 1.0f;
}
int main() {
  const int n = 1 << 20;
  float* data = nullptr;
  if (cudaMalloc(&data, n * sizeof(float)) != cudaSuccess) { std::puts("cudaMalloc failed"); return 3; }
  kopt_ncu_probe<<<(n + 255) / 256, 256>>>(data, n);
  const cudaError_t rc = cudaDeviceSynchronize();
  cudaFree(data);
  if (rc != cudaSuccess) { std::printf("probe kernel failed: %s\n", cudaGetErrorString(rc)); return 4; }
  return 0;
}
)CU";

}  // namespace

ncu_probe_result interpret_ncu_probe(const std::string& output, bool exited_ok) {
  ncu_probe_result result;
  if (tools::ncu_reports_counter_permission_error(output)) {
    result.detail = "ncu is not permitted to read GPU performance counters (ERR_NVGPUCTRPERM)";
    result.fix = tools::ncu_counter_permission_fix;
    return result;
  }
  for (const std::string& line : split_lines(output)) {
    if (line.find("gpu__time_duration.sum") == std::string::npos || line.find("kopt_ncu_probe") == std::string::npos) {
      continue;
    }
    // The metric value is the last quoted field of the row.
    const size_t end = line.rfind('"');
    const size_t start = end == std::string::npos ? end : line.rfind('"', end - 1);
    if (start != std::string::npos && exited_ok) {
      result.counters_readable = true;
      result.detail = fmt::format("profiled a probe kernel: gpu__time_duration.sum = {} ns",
                                  line.substr(start + 1, end - start - 1));
      return result;
    }
  }
  std::string first_problem;
  for (const std::string& line : split_lines(output)) {
    if (line.find("ERR") != std::string::npos || line.find("rror") != std::string::npos ||
        line.find("WARNING") != std::string::npos) {
      first_problem = std::string(trim(line));
      break;
    }
  }
  result.detail = first_problem.empty() ? "ncu produced no metric for the probe kernel" : first_problem;
  result.fix = "check that `ncu --metrics gpu__time_duration.sum <program>` works on this machine "
               "(driver, permissions, a virtualised GPU without profiling support)";
  return result;
}

ncu_probe_result probe_ncu_counters(const tools::located_tool& ncu, const tools::located_tool& nvcc,
                                    const compile::arch_target& arch,
                                    const std::string& device_uuid) {
  const std::string key = sha256_hex(fmt::format("{}|{}|{}", probe_source, nvcc.version_text, arch.name));
  const fs::path dir = cache_root() / "preflight" / key.substr(0, 16);
  const fs::path program = dir / "kopt_ncu_probe";
  std::error_code ec;
  if (!fs::exists(program, ec)) {
    write_file_atomic(dir / "probe.cu", probe_source);
    std::vector<std::string> argv = {nvcc.path.string(), "-O2"};
    for (const auto& flag : compile::gencode_flags(arch)) argv.push_back(flag);
    const fs::path temp_program = dir / "kopt_ncu_probe.tmp";
    argv.insert(argv.end(), {"-o", temp_program.string(), (dir / "probe.cu").string()});
    const process_result build = run_process({.argv = argv, .timeout = std::chrono::seconds(300)});
    if (!build.succeeded()) {
      return {false, fmt::format("could not build the probe program: nvcc {}", build.describe_end()),
              "check that nvcc can build for " + arch.name};
    }
    fs::rename(temp_program, program, ec);
  }
  const process_result run = run_process(
      {.argv = {ncu.path.string(), "--clock-control", "none", "--metrics", "gpu__time_duration.sum",
                "--csv", "--print-units", "base", program.string()},
       .extra_env = {{"CUDA_VISIBLE_DEVICES", device_uuid}},
       .timeout = std::chrono::seconds(180)});
  if (!run.started) return {false, run.start_error, "check --ncu-bin"};
  if (run.timed_out) return {false, "ncu did not finish within 180 s", "try the command by hand"};
  return interpret_ncu_probe(run.stdout_text + run.stderr_text, run.succeeded());
}

}  // namespace kopt::env
