#include "cli/bench_setup.h"

#include "cli/dimension_args.h"
#include "cli/kernel_flags.h"
#include "cli/option_checks.h"

namespace kopt::cli {

void bench_target_options::add_to(CLI::App& sub) {
  sub.add_option("kernel", kernel,
                 "the kernel: a .cu file exposing extern \"C\" void solve(...), or a Triton .py module with "
                 "setup() and run_kernel()")
      ->required();
  sub.add_option("--ref", ref, "reference: a .py module with reference(**kwargs), or a .cu file with the same solve()");
  sub.add_option("--backend", backend, "cuda, cutlass, triton, or auto (the default: from the file)");
  sub.add_option("--dim", dims, "NAME=VALUE: set solve()'s scalar NAME (also names of kopt's flags)")
      ->allow_extra_args(false);
  sub.add_option("--ptr-size", ptr_size, "element count of buffers without an annotated size")
      ->check(at_least<std::int64_t>(0, "elements"));
  sub.add_option("--arch", arch, "target architecture (default: the GPU's)");
  sub.add_option("-D", defines,
                 "preprocessor definition NAME[=VALUE] for the build (repeatable); it also picks which #if "
                 "variant of solve() kopt plans from");
  sub.add_option("--gpu", gpu, "CUDA device ordinal")->default_val(0)->check(at_least(0, "a device ordinal"));
  sub.add_option("--nvcc-bin", nvcc_bin, "nvcc to use");
  sub.add_option("--timeout", timeout, "time limit of the measuring process [s]")
      ->default_val(600)
      ->check(seconds_limit<int>());
  sub.footer("Dimensions: --NAME=VALUE, e.g. --rows=4096 --cols=1024.");
}

pipeline::bench_target bench_target_options::to_target(const CLI::App& sub) const {
  pipeline::bench_target target;
  target.kernel = kernel;
  target.ref = ref;
  target.backend = backend;
  target.dims = collect_dimension_args(sub.remaining(), dims, &sub);
  if (ptr_size > 0) target.ptr_size = ptr_size;
  target.own_flag_names = kopt_flag_names(sub);
  target.arch = arch;
  target.defines = defines;
  target.gpu = gpu;
  target.nvcc_bin = nvcc_bin;
  target.timeout_s = timeout;
  target.command_name = command_name;
  target.gpu_purpose = gpu_purpose;
  return target;
}

}  // namespace kopt::cli
