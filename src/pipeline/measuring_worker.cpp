#include "pipeline/measuring_worker.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "core/file_lock.h"
#include "core/files.h"
#include "core/gated_process.h"
#include "core/install_layout.h"
#include "kernel/buffer_plan.h"
#include "pipeline/child_launch.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

// A measuring process started ahead (prestart()), the job it was for and the line that opens
// its gate.
struct prestarted_child {
  harness::bench_job job;
  std::string device_uuid;
  std::unique_ptr<child_launch> launch;
  std::unique_ptr<gated_process> process;
  std::string go_line;

  bool serves(const std::vector<std::string>& wrapper, const harness::bench_job& other,
              const env::gpu_device& device) const {
    return wrapper.empty() && device.uuid == device_uuid && prestart_serves(job, other) && process->waiting();
  }
};

bool is_python_reference(const harness::bench_job& job) {
  return harness::is_reference_role(job) && harness::has_python_reference(job);
}

// A long-lived kopt's Python references' processes, started one command ahead (keep_python_references_warm()).
// Before its gate a reference's process is the same for every reference (kopt harness --gated
// with the Python runner importing torch: no job, no module, no GPU, no folder to write), so one
// started during a command serves the next command's reference, whatever it is.
struct warm_references {
  bool enabled = false;
  std::vector<prestarted_child> children;

  static bool fits(const prestarted_child& c, const std::vector<std::string>& wrapper, const harness::bench_job& job,
                   const env::gpu_device& device) {
    return wrapper.empty() && is_python_reference(job) && c.device_uuid == device.uuid &&
           c.job.python == job.python && c.job.python_runner == job.python_runner && c.process->waiting();
  }
};

warm_references& warm_pool() {
  static warm_references pool;
  return pool;
}

bool is_triton_kernel(const harness::bench_job& job) {
  return is_triton(job) && !harness::is_reference_role(job) && !harness::is_problem_role(job) && !job.profile_mode;
}

// A measuring process for `job` (a Python reference's or a Triton kernel's), started now and
// held at its gate; nothing when it cannot start (run() then starts one the usual way and says
// why it cannot).
std::optional<prestarted_child> start_ahead(const harness::bench_job& job, const env::gpu_device& device) {
  auto launch = std::make_unique<child_launch>(std::vector<std::string>{}, job, device);
  std::string go_line;
  std::chrono::milliseconds grace{0};
  std::vector<std::string>& argv = launch->request.argv;
  if (is_python_reference(job)) {
    // `kopt harness --gated --python PY --runner R JOB RESULT`: the runner's path and Python
    // travel on the command line, where the code under test cannot change them. Dropped
    // unopened, the harness ends its own runner before it leaves (grace): a runner it left
    // behind would be adopted by kopt and taken for a process the next version left running.
    argv.insert(argv.begin() + 2, {"--gated", "--python", job.python, "--runner", job.python_runner});
    go_line = "go";
    grace = std::chrono::seconds(5);
  } else {
    // The Triton runner restricts its writes to where this run's kernel process may write
    // before torch starts a thread, then loads torch and Triton, and waits for its command.
    go_line = json(std::vector<std::string>(argv.begin() + 2, argv.end())).dump();
    argv.resize(2);
    argv.insert(argv.end(), {"--gated", "--writes", launch->work.string()});
    if (!job.evidence_dir.empty()) argv.insert(argv.end(), {"--writes", job.evidence_dir});
    argv.insert(argv.end(), {"torch", "triton"});
  }
  auto process = std::make_unique<gated_process>(launch->request, grace);
  if (!process->started()) return std::nullopt;
  return prestarted_child{job, device.uuid, std::move(launch), std::move(process), go_line};
}

class process_worker final : public measuring_worker {
 public:
  env::gpu_probe_result probe_gpus() override { return env::probe_gpus(); }

  void prestart(const harness::bench_job& job, const env::gpu_device& device) override {
    // A .cu reference's or a CUDA kernel's process starts in milliseconds: nothing to gain.
    if (!is_python_reference(job) && !is_triton_kernel(job)) return;
    warm_references& pool = warm_pool();
    if (pool.enabled && is_python_reference(job)) {
      // One kept from the last command serves; else this one starts the pool.
      for (const prestarted_child& c : pool.children) {
        if (warm_references::fits(c, {}, job, device)) return;
      }
      if (auto child = start_ahead(job, device)) pool.children.push_back(std::move(*child));
      return;
    }
    if (auto child = start_ahead(job, device)) m_prestarted.push_back(std::move(*child));
  }

  void drop_prestarted() override { m_prestarted.clear(); }

  std::unique_ptr<block_timing> open_block_timing(const std::vector<harness::bench_job>& jobs,
                                                  const env::gpu_device& device, int block_timeout_s) override {
    return open_block_timing_processes(jobs, device, block_timeout_s);
  }

  wrapped_child_run run(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                        const env::gpu_device& device, int timeout_s) override {
    std::optional<prestarted_child> prestarted;
    for (auto it = m_prestarted.begin(); it != m_prestarted.end(); ++it) {
      if (it->serves(wrapper, job, device)) {
        prestarted = std::move(*it);
        m_prestarted.erase(it);
        break;
      }
    }
    warm_references& pool = warm_pool();
    if (!prestarted && pool.enabled) {
      for (auto it = pool.children.begin(); it != pool.children.end(); ++it) {
        if (warm_references::fits(*it, wrapper, job, device)) {
          prestarted = std::move(*it);
          pool.children.erase(it);
          // Its successor loads torch now, ready for the next command's reference.
          if (auto next = start_ahead(prestarted->job, device)) pool.children.push_back(std::move(*next));
          break;
        }
      }
    }
    std::unique_ptr<child_launch> own;
    if (!prestarted) own = std::make_unique<child_launch>(wrapper, job, device);
    const child_launch& launch = prestarted ? *prestarted->launch : *own;
    launch.write_job(job);
    const std::unique_ptr<file_lock> gpu_lock = lock_gpu_for_measuring(device);
    wrapped_child_run run;
    if (prestarted) {
      run.process = prestarted->process->open(prestarted->go_line, std::chrono::seconds(timeout_s));
    } else {
      process_request request = launch.request;
      request.timeout = std::chrono::seconds(timeout_s);
      run.process = run_process(request);
    }
    run.result = launch.seal.read(launch.result_file, run.forged_result);
    return run;
  }

 private:
  std::vector<prestarted_child> m_prestarted;
};

}  // namespace

std::unique_ptr<measuring_worker> make_process_worker() { return std::make_unique<process_worker>(); }

void keep_python_references_warm() { warm_pool().enabled = true; }

std::size_t warm_reference_processes() {
  std::size_t waiting = 0;
  for (const prestarted_child& c : warm_pool().children) waiting += c.process->waiting() ? 1 : 0;
  return waiting;
}

std::unique_ptr<block_timing> measuring_worker::open_block_timing(const std::vector<harness::bench_job>& jobs,
                                                                  const env::gpu_device& device, int block_timeout_s) {
  (void)jobs;
  (void)device;
  (void)block_timeout_s;
  throw error("this measuring worker cannot time versions in turns");
}

bool result_is_sealed(const std::vector<std::string>& wrapper, const harness::bench_job& job) {
  return wrapper.empty() && !harness::is_problem_role(job);
}

bool prestart_serves(const harness::bench_job& ahead, const harness::bench_job& job) {
  return job.role == ahead.role && job.backend == ahead.backend && job.kernel_source == ahead.kernel_source &&
         job.reference_source == ahead.reference_source && job.python == ahead.python &&
         job.python_runner == ahead.python_runner && job.evidence_dir == ahead.evidence_dir &&
         job.profile_mode == ahead.profile_mode;
}

bool is_triton_backend(const std::string& backend) { return backend == kernel::to_string(kernel::backend::triton); }

bool is_triton(const harness::bench_job& job) { return is_triton_backend(job.backend); }

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
