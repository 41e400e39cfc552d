#include "cli/bench_setup.h"

#include "cli/device_option.h"
#include "cli/option_checks.h"

namespace kopt::cli {

void bench_target_options::add_to(CLI::App& sub) {
  const std::string what =
      "the kernel: a .cu file exposing extern \"C\" void solve(...), or a Triton .py module with setup() and "
      "run_kernel()";
  if (several_kernels) {
    sub.add_option("kernel", kernels, what + "; several are each benched with the same reference and problem")
        ->required();
  } else {
    sub.add_option("kernel", kernel, what)->required();
  }
  sub.add_option("--ref", ref, "reference: a .py module with reference(**kwargs), or a .cu file with the same solve()");
  sub.add_option("--backend", backend, "cuda, cutlass, triton, or auto (the default: from the file)");
  dimensions.add_to(sub);
  sub.add_option("--arch", arch, "target architecture (default: the GPU's)");
  sub.add_option("-D", defines,
                 "preprocessor definition NAME[=VALUE] for the build (repeatable); it also picks which #if "
                 "variant of solve() kopt plans from");
  add_gpu_option(sub, gpu, "CUDA device ordinal");
  sub.add_option("--nvcc-bin", nvcc_bin, "nvcc to use");
  sub.add_option("--timeout", timeout, "time limit of the measuring process [s]")
      ->default_val(600)
      ->check(seconds_limit<int>());
  sub.footer("Dimensions: --NAME=VALUE, e.g. --rows=4096 --cols=1024.");
}

pipeline::bench_target bench_target_options::to_target(const CLI::App& sub) const {
  pipeline::bench_target target{.kernel = several_kernels ? kernels.front() : kernel,
                                .ref = ref,
                                .backend = backend,
                                .arch = arch,
                                .defines = defines,
                                .gpu = gpu,
                                .nvcc_bin = nvcc_bin,
                                .timeout_s = timeout,
                                .command_name = command_name,
                                .gpu_purpose = gpu_purpose};
  dimensions.fill(target, sub);
  return target;
}

}  // namespace kopt::cli
