// The process worker: one measuring child process per job on this machine's GPUs, with the
// children a command will need started ahead (prestarted_child.h) and, in a kopt that runs many
// commands, some kept warm between them (warm_processes.h). Declared with the interface it
// implements (measuring_worker.h), made here, above the pieces it is made of.
#include <filesystem>
#include <optional>

#include "core/file_lock.h"
#include "pipeline/block_timing_processes.h"
#include "pipeline/child_launch.h"
#include "pipeline/measuring_worker.h"
#include "pipeline/prestarted_child.h"
#include "pipeline/warm_processes.h"

namespace kopt::pipeline {
namespace {

class process_worker final : public measuring_worker {
 public:
  env::gpu_probe_result probe_gpus() override { return env::probe_gpus(); }

  void prestart(const harness::bench_job& job, const env::gpu_device& device) override {
    warm_processes& warm = warm_processes::instance();
    if (warm.enabled() && warm_processes::keeps(job)) {
      warm.keep_one_for(job, device);  // one kept from the last command serves, else it starts now
      warm.ask_for_gpu_context(job, device);
      return;
    }
    // A CUDA kernel's makes its GPU context while kopt builds the kernel, and a Python
    // reference's runner makes its own once torch is loaded, beside it (the kernel's run counts
    // it as an idle peer, not as another process). A .cu reference's would hold its context
    // through the kernel's sampling unannounced: it starts when it runs. A Triton problem's
    // runs at once: its start would overlap nothing.
    if (!is_python_reference(job) && !is_triton_kernel(job) && !is_cuda_kernel(job)) return;
    if (auto child = start_ahead(job, device)) {
      child->ask_for_gpu_context();
      m_prestarted.push_back(std::move(*child));
    }
  }

  std::shared_ptr<const private_folder> warm_problem_folder(const harness::bench_job& job,
                                                            const env::gpu_device& device) override {
    return warm_processes::instance().problem_folder_for(job, device);
  }

  void drop_prestarted() override {
    m_prestarted.clear();
    warm_processes::instance().end_those_asked_for_context();
  }

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
    if (!prestarted) prestarted = warm_processes::instance().take_for(wrapper, job, device);
    std::unique_ptr<child_launch> own;
    if (!prestarted) own = std::make_unique<child_launch>(wrapper, job, device);
    const child_launch& launch = prestarted ? *prestarted->launch : *own;
    const std::unique_ptr<file_lock> gpu_lock = lock_gpu_for_measuring(device);
    // With the lock held, a reference's runner asked for its context has made it or never will
    // before this run ends (prestarted_child::holds_gpu_context).
    harness::bench_job to_run = job;
    if (wrapper.empty() && job.kind == harness::job_kind::kernel) {
      to_run.idle_peers = idle_gpu_contexts(device);
    }
    launch.write_job(to_run);
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
  // Reference processes started ahead that hold an idle GPU context on `device` now.
  int idle_gpu_contexts(const env::gpu_device& device) {
    int held = warm_processes::instance().gpu_contexts_held(device);
    for (prestarted_child& child : m_prestarted)
      held += child.device_uuid == device.uuid && child.holds_gpu_context();
    return held;
  }

  std::vector<prestarted_child> m_prestarted;
};

}  // namespace

std::unique_ptr<measuring_worker> make_process_worker() { return std::make_unique<process_worker>(); }

void keep_processes_warm() { warm_processes::instance().enable(); }

}  // namespace kopt::pipeline
