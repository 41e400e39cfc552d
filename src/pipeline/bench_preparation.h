#pragma once
// What `bench` and `profile` share before anything is measured: planning the buffers from the
// kernel's source, checking the reference, finding the GPU and building kernel and reference;
// and the provenance every result carries. Running the measuring child is child_verdict.h's.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compile/compiler.h"
#include "core/private_folder.h"
#include "core/json_io.h"
#include "harness/child_report.h"
#include "pipeline/bench_result.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "kernel/buffer_plan.h"
#include "kernel/dimensions.h"
#include "pipeline/measuring_worker.h"
#include "pipeline/output_verdict.h"

namespace kopt::pipeline {

// The kernel, its reference and where to measure: the typed form of bench's and profile's
// common options.
struct bench_target {
  std::filesystem::path kernel;
  std::filesystem::path ref;                    // empty: no reference
  std::string backend;                          // "": from the file
  std::vector<kernel::dimension_arg> dims;
  std::optional<std::int64_t> ptr_size;
  std::vector<std::string> own_flag_names;      // names a scalar must not take unless given as a dimension
  std::string arch;                             // "": the GPU's
  std::vector<std::string> defines;             // -D NAME[=VALUE] for the kernel's (and a .cu reference's) build
  int gpu = 0;
  std::string nvcc_bin;
  int timeout_s = 600;                          // limit of the measuring child
  // Which command plans, for its messages ("kopt bench"), and what it needs the GPU for.
  std::string command_name = "kopt bench";
  std::string gpu_purpose = "time on";
};

// A source that did not build: the file as the user named it and the compiler's result.
struct build_failure {
  std::string file;
  compile::compile_result result;
};

struct prepared_bench {
  std::filesystem::path kernel_file;
  std::filesystem::path ref_file;    // empty without a reference
  kernel::kernel_plan plan;
  env::gpu_probe_result gpus;
  env::gpu_device device;
  compile::compile_result kernel_build;
  std::optional<build_failure> failed_build;  // set: nothing more can be done
  // A Triton kernel's problem (setup() run apart from the kernel): its files live as long as
  // this object, and the job carries the problem itself.
  std::shared_ptr<const private_folder> triton_problem_folder;
  std::optional<std::string> failed_problem;  // set ("seed blindness: ..."): the kernel failed
};

// The kernel planned from its source with the target's dimensions: what checks the command
// line's arguments before anything needs a GPU or a tool. Throws kopt::error.
kernel::kernel_plan plan_target(const bench_target& target);

// Plans, checks the reference, finds the GPU (through `worker`) and builds (for a Triton
// kernel: runs the problem step instead); fills the job's sources, libraries, dimensions and
// Triton problem. Throws kopt::error for usage and environment problems. With `prestart`
// (the folders the judged run will use), the measuring processes whose start-up is slow (a
// Python reference's, a Triton kernel's) are asked of the worker as soon as the GPU is known
// (measuring_worker::prestart), to start up while the rest goes on.
prepared_bench prepare_bench(const bench_target& target, harness::bench_job& job, measuring_worker& worker,
                             const evidence_folders* prestart = nullptr);

// The provenance every bench result and profile carries.
run_provenance provenance_of(const prepared_bench& prepared, const harness::bench_job& job);

}  // namespace kopt::pipeline
