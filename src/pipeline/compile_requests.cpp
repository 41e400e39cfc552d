#include "pipeline/compile_requests.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "env/gpu_probe.h"

namespace kopt::pipeline {

compile::compile_request compile_request_of(const compile_options& options) {
  const std::string source = read_text_file(options.kernel_file, "kernel file");
  compile::compile_request request;
  request.kernel_file = options.kernel_file;
  request.backend = kernel::infer_backend(options.kernel_file, source, options.backend);
  if (request.backend == kernel::backend::triton) {
    throw error(fmt::format("{} is a Triton module: Triton compiles it when it runs, and compile builds .cu files "
                            "only",
                            options.kernel_file.filename().string()));
  }
  request.defines = options.defines;
  request.arch = options.arch;
  request.nvcc_bin = options.nvcc_bin;
  if (request.arch.empty()) {
    const env::gpu_probe_result gpus = env::probe_gpus();
    if (const env::gpu_device* device = gpus.device(options.gpu)) request.device = device->capability;
  }
  return request;
}

}  // namespace kopt::pipeline
