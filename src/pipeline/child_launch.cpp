#include "pipeline/child_launch.h"

#include <atomic>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "core/files.h"
#include "core/install_layout.h"
#include "pipeline/measuring_child.h"
#include "pipeline/reference_environment.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

int next_number() {
  static std::atomic<int> number =
      0;  // the versions of a round on several GPUs launch from their own threads
  return ++number;
}

}  // namespace

child_launch::child_launch(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                           const env::gpu_device& device)
    : work(cache_root() / "bench" / fmt::format("{}-{}-{}", ::getpid(), std::time(nullptr), next_number())),
      job_file(work / "job.json"),
      result_file(work / "result.json"),
      seal(result_is_sealed(wrapper, job)) {
  fs::create_directories(work);
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
  const bool reference_side = job.kind == harness::job_kind::reference ||
                              (job.kind == harness::job_kind::problem && job.problem_owner != "kernel");
  if (reference_side) unset = variables_to_clear_for_reference();
  request = process_request{.argv = argv, .extra_env = env, .unset_env = unset, .ends_with_program = true};
  seal.prepare(request);
}

child_launch::~child_launch() {
  std::error_code ec;
  fs::remove_all(work, ec);
}

void child_launch::write_job(const harness::bench_job& job) const {
  std::error_code ec;
  fs::remove(job_file, ec);
  fs::remove(result_file, ec);
  const json document = to_document(job);
  // Read back as the child will: a job with another kind's part is kopt's bug, caught here.
  (void)from_document<harness::bench_job>(document);
  write_json_file(job_file, document);
}

std::filesystem::path gpu_lock_path(const env::gpu_device& device) {
  return cache_root() / "locks" / fmt::format("{}.lock", device.uuid);
}

std::unique_ptr<file_lock> lock_gpu_for_measuring(const env::gpu_device& device) {
  auto lock = std::make_unique<file_lock>(gpu_lock_path(device));
  // This bench's processes started ahead hold it (shared) while they make their GPU contexts,
  // a kernel's and a reference's runner's side by side: that is no other kopt, and not worth a
  // line. On a loaded machine the two can take seconds.
  const auto quiet_until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!lock->try_lock() && std::chrono::steady_clock::now() < quiet_until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!lock->try_lock()) {
    std::fprintf(stderr, "kopt: another kopt is measuring on %s; waiting for it\n", device.uuid.c_str());
    lock->lock();
  }
  return lock;
}

}  // namespace kopt::pipeline
