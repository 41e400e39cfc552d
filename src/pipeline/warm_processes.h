#pragma once
// Measuring processes kept warm from one command to the next, in a kopt that runs many (the
// warm worker, the MCP server, a loop with --agent): a Python reference's, and a Triton
// problem step's. Until its gate opens such a process is the same for every job of its kind
// (the Python runner with torch and Triton loaded; a problem step's also with its writes
// restricted to a private folder made for it), so one started during a command serves the next
// command's job, whatever the module. Each is used once: taking it starts its successor, which
// loads while the rest of the command runs and the user thinks.

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/json_io.h"
#include "core/private_folder.h"
#include "env/gpu_probe.h"
#include "harness/bench_job.h"
#include "pipeline/prestarted_child.h"

namespace kopt::pipeline {

class warm_processes {
 public:
  // The process's one set (empty and off until enable()).
  static warm_processes& instance();

  void enable() { m_enabled = true; }
  bool enabled() const { return m_enabled; }

  // Whether a process of `job`'s kind can be kept warm (a Python reference, a Triton problem).
  static bool keeps(const harness::bench_job& job);

  // Makes sure one waits for a job like `job` on `device`, starting it when none does.
  void keep_one_for(const harness::bench_job& job, const env::gpu_device& device);

  // Asks the waiting Python reference's process for a job like `job` to make its GPU context
  // now (prestarted_child::ask_for_gpu_context): it serves this command.
  void ask_for_gpu_context(const harness::bench_job& job, const env::gpu_device& device);

  // How many of those waiting hold a GPU context on `device` (idle: their gate is closed).
  int gpu_contexts_held(const env::gpu_device& device);

  // Ends those asked for a context that no job took (the command ended before it ran its
  // reference), each replaced by a fresh one: a kept process holds no GPU context while kopt
  // waits for its next command.
  void end_those_asked_for_context();

  // The private folder the waiting Triton problem process for a job like `job` may write in:
  // the problem step keeps its tensors there, and its job then names it. Null when none waits.
  std::shared_ptr<const private_folder> problem_folder_for(const harness::bench_job& job,
                                                           const env::gpu_device& device) const;

  // The waiting process that runs `job` (unwrapped, on `device`), taken; its successor starts
  // now. Nothing when none fits.
  std::optional<prestarted_child> take_for(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                                           const env::gpu_device& device);

  // How many wait now.
  std::size_t waiting() const;

  // Those kept now, for `kopt worker status`: per process its kind ("python reference" or
  // "triton problem"), process id, GPU and whether it still waits. Safe to call from another
  // thread than the one running commands.
  json describe() const;

 private:
  struct entry {
    prestarted_child child;
    std::shared_ptr<const private_folder> folder;  // a problem step's; null for a reference's
  };

  // Whether `e` would run a job like `job` (all but the problem's folder alike).
  static bool alike(const entry& e, const harness::bench_job& job, const env::gpu_device& device);
  std::optional<entry> start(harness::bench_job job, const env::gpu_device& device);

  bool m_enabled = false;
  mutable std::mutex m_mutex;  // describe() runs on the worker's serving thread
  std::vector<entry> m_entries;
};

}  // namespace kopt::pipeline
