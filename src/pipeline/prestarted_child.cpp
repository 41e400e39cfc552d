#include "pipeline/prestarted_child.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "core/error.h"
#include "core/file_lock.h"
#include "harness/reference_gate.h"
#include "pipeline/measuring_child.h"

namespace kopt::pipeline {

bool prestarted_child::serves(const std::vector<std::string>& wrapper, const harness::bench_job& other,
                              const env::gpu_device& device) const {
  return wrapper.empty() && device.uuid == device_uuid && prestart_serves(job, other) && process->waiting();
}

bool prestart_serves(const harness::bench_job& ahead, const harness::bench_job& job) {
  return job.kind == ahead.kind && job.backend == ahead.backend && job.kernel_source == ahead.kernel_source &&
         job.reference_source == ahead.reference_source && job.python == ahead.python &&
         job.python_runner == ahead.python_runner &&
         harness::evidence_dir_of(job) == harness::evidence_dir_of(ahead) &&
         job.problem_owner == ahead.problem_owner;
}

bool is_python_reference(const harness::bench_job& job) {
  return job.kind == harness::job_kind::reference && harness::has_python_reference(job);
}

namespace {

// The kernel's own measuring process, not profiled (a profile runs under ncu, not started ahead).
bool is_unprofiled_kernel(const harness::bench_job& job) {
  return job.kind == harness::job_kind::kernel;
}

// `--writes` for each folder the job's process may write in besides the usual ones.
std::vector<std::string> writes_options(const child_launch& launch, const harness::bench_job& job) {
  std::vector<std::string> options = {"--writes", launch.work.string()};
  const std::string evidence_dir = harness::evidence_dir_of(job);
  if (!evidence_dir.empty()) options.insert(options.end(), {"--writes", evidence_dir});
  return options;
}

// `--gpu-lock L` for a process that makes its GPU context ahead, holding the GPU's lock L; nothing
// when there is no lock file (then no context is made ahead, and the run itself says why it
// cannot lock the GPU).
std::vector<std::string> gpu_lock_option(const env::gpu_device& device) {
  const std::filesystem::path lock = gpu_lock_path(device);
  try {
    { const file_lock made(lock); }  // made now: the process may not create it
  } catch (const error&) {
    return {};
  }
  return {"--gpu-lock", lock.string()};
}

}  // namespace

void prestarted_child::ask_for_gpu_context() {
  // KOPT_REFERENCE_CONTEXT_AHEAD=0 leaves the context to the reference's own start, as before:
  // the speed benchmark measures both side by side.
  const char* wanted = std::getenv("KOPT_REFERENCE_CONTEXT_AHEAD");
  if (wanted != nullptr && std::string_view(wanted) == "0") return;
  if (is_python_reference(job) && process->say(harness::context_request)) m_context = context_state::asked;
}

bool prestarted_child::holds_gpu_context() {
  if (m_context == context_state::asked) {
    for (const std::string& answer : process->heard()) {
      m_context = answer == harness::context_made_answer ? context_state::made : context_state::not_made;
    }
  }
  return m_context == context_state::made;
}

bool is_triton_kernel(const harness::bench_job& job) { return is_triton(job) && is_unprofiled_kernel(job); }

bool is_triton_problem(const harness::bench_job& job) {
  return is_triton(job) && job.kind == harness::job_kind::problem;
}

bool is_cuda_kernel(const harness::bench_job& job) { return !is_triton(job) && is_unprofiled_kernel(job); }

std::optional<prestarted_child> start_ahead(const harness::bench_job& job, const env::gpu_device& device) {
  auto launch = std::make_unique<child_launch>(std::vector<std::string>{}, job, device);
  std::string go_line;
  std::chrono::milliseconds grace{0};
  std::vector<std::string>& argv = launch->request.argv;
  if (is_cuda_kernel(job)) {
    // `kopt harness --gated --writes W... --gpu-lock L JOB RESULT`: its writes restricted and
    // its GPU context made (holding the GPU's lock) before the gate (harness/context_ahead.h).
    std::vector<std::string> gated = writes_options(*launch, job);
    gated.insert(gated.begin(), "--gated");
    const std::vector<std::string> lock = gpu_lock_option(device);
    gated.insert(gated.end(), lock.begin(), lock.end());
    argv.insert(argv.begin() + 2, gated.begin(), gated.end());
    go_line = "go";
  } else if (is_python_reference(job)) {
    // `kopt harness --gated --python PY --runner R --gpu-lock L JOB RESULT`: the runner's path
    // and Python travel on the command line, where the code under test cannot change them; its
    // context is made when asked (ask_for_gpu_context). Dropped unopened, the harness ends its
    // own runner before it leaves (grace): a runner it left behind would be adopted by kopt and
    // taken for a process the next version left running.
    std::vector<std::string> gated = {"--gated", "--python", job.python, "--runner", job.python_runner};
    const std::vector<std::string> lock = gpu_lock_option(device);
    gated.insert(gated.end(), lock.begin(), lock.end());
    argv.insert(argv.begin() + 2, gated.begin(), gated.end());
    go_line = "go";
    grace = std::chrono::seconds(5);
  } else {
    // The Triton runner (a kernel's, or the problem step's) restricts its writes to where the
    // job's process may write before torch starts a thread, then loads torch and Triton, and
    // waits for its command.
    go_line = json(std::vector<std::string>(argv.begin() + 2, argv.end())).dump();
    argv.resize(2);
    argv.push_back("--gated");
    const std::vector<std::string> writes = writes_options(*launch, job);
    argv.insert(argv.end(), writes.begin(), writes.end());
    argv.insert(argv.end(), {"torch", "triton"});
  }
  auto process = std::make_unique<gated_process>(launch->request, grace);
  if (!process->started()) return std::nullopt;
  prestarted_child child;
  child.job = job;
  child.device_uuid = device.uuid;
  child.launch = std::move(launch);
  child.process = std::move(process);
  child.go_line = go_line;
  return child;
}

}  // namespace kopt::pipeline
