#include "pipeline/measuring_worker.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "core/file_lock.h"
#include "core/files.h"
#include "core/install_layout.h"
#include "kernel/buffer_plan.h"
#include "pipeline/child_seal.h"
#include "pipeline/reference_environment.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

class process_worker final : public measuring_worker {
 public:
  env::gpu_probe_result probe_gpus() override { return env::probe_gpus(); }

  wrapped_child_run run(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                        const env::gpu_device& device, int timeout_s) override {
    const fs::path work = cache_root() / "bench" / fmt::format("{}-{}", ::getpid(), std::time(nullptr));
    const fs::path job_file = work / "job.json";
    const fs::path result_file = work / "result.json";
    write_json_file(job_file, harness::to_json(job));
    // One measuring kopt per GPU at a time: two would slow each other down.
    file_lock gpu_lock(cache_root() / "locks" / fmt::format("{}.lock", device.uuid));
    if (!gpu_lock.try_lock()) {
      std::fprintf(stderr, "kopt: another kopt is measuring on %s; waiting for it\n", device.uuid.c_str());
      gpu_lock.lock();
    }
    std::vector<std::string> argv = wrapper;
    const std::vector<std::string> child = measuring_child_argv(job, job_file.string(), result_file.string());
    argv.insert(argv.end(), child.begin(), child.end());
    // The child sees exactly the chosen GPU as device 0, so the kernel's runtime uses it.
    std::map<std::string, std::string> env{{"CUDA_VISIBLE_DEVICES", device.uuid}};
    // Triton compiles into a cache of this run's own, so no binary from an earlier run (of
    // another version of the module, say) can stand in for the one the source gives now.
    if (is_triton(job)) env["TRITON_CACHE_DIR"] = (work / "triton-cache").string();
    // The reference's process, and a Triton problem's when it runs the reference's setup(), get
    // the user's environment cut down to what finding the driver and Python needs
    // (reference_environment.h). The kernel module's own setup() sees what the kernel does.
    std::vector<std::string> unset;
    const bool reference_side =
        harness::is_reference_role(job) || (harness::is_problem_role(job) && job.problem_owner != "kernel");
    if (reference_side) unset = variables_to_clear_for_reference();
    wrapped_child_run run;
    process_request request{.argv = argv,
                            .extra_env = env,
                            .unset_env = unset,
                            .timeout = std::chrono::seconds(timeout_s),
                            .ends_with_program = true};
    const child_seal seal(result_is_sealed(wrapper, job));
    seal.prepare(request);
    run.process = run_process(request);
    run.result = seal.read(result_file, run.forged_result);
    std::error_code ec;
    fs::remove_all(work, ec);
    return run;
  }
};

}  // namespace

std::unique_ptr<measuring_worker> make_process_worker() { return std::make_unique<process_worker>(); }

bool result_is_sealed(const std::vector<std::string>& wrapper, const harness::bench_job& job) {
  return wrapper.empty() && !harness::is_problem_role(job);
}

bool is_triton(const harness::bench_job& job) { return job.backend == kernel::to_string(kernel::backend::triton); }

std::vector<std::string> measuring_child_argv(const harness::bench_job& job, const std::string& job_file,
                                              const std::string& result_file) {
  // A Triton kernel's reference runs as a CUDA kernel's .py reference does, through kopt.
  if (is_triton(job) && !harness::is_reference_role(job)) {
    return {job.python, job.python_runner, harness::is_problem_role(job) ? "triton-problem" : "triton", job_file,
            result_file};
  }
  return {fs::read_symlink("/proc/self/exe").string(), "harness", job_file, result_file};
}

}  // namespace kopt::pipeline
