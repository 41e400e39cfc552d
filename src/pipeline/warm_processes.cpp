#include "pipeline/warm_processes.h"

#include <utility>

#include "pipeline/triton_problem_step.h"

namespace kopt::pipeline {

warm_processes& warm_processes::instance() {
  static warm_processes processes;
  return processes;
}

bool warm_processes::keeps(const harness::bench_job& job) { return is_python_reference(job) || is_triton_problem(job); }

bool warm_processes::alike(const entry& e, const harness::bench_job& job, const env::gpu_device& device) {
  const harness::bench_job& held = e.child.job;
  if (e.child.device_uuid != device.uuid || held.python != job.python || held.python_runner != job.python_runner ||
      !e.child.process->waiting()) {
    return false;
  }
  if (is_python_reference(job)) return is_python_reference(held);
  // A problem step's environment depends on whose setup() it runs (the reference's gets the
  // reference's cut-down environment: child_launch).
  return is_triton_problem(job) && is_triton_problem(held) && held.problem_owner == job.problem_owner;
}

std::optional<warm_processes::entry> warm_processes::start(harness::bench_job job, const env::gpu_device& device) {
  entry e;
  if (is_triton_problem(job)) {
    e.folder = new_problem_folder();
    job.validation->evidence_dir = e.folder->path().string();
  }
  std::optional<prestarted_child> child = start_ahead(job, device);
  if (!child) return std::nullopt;
  e.child = std::move(*child);
  return e;
}

void warm_processes::keep_one_for(const harness::bench_job& job, const env::gpu_device& device) {
  if (!m_enabled || !keeps(job)) return;
  const std::lock_guard lock(m_mutex);
  for (const entry& e : m_entries) {
    if (alike(e, job, device)) return;
  }
  if (std::optional<entry> e = start(job, device)) m_entries.push_back(std::move(*e));
}

void warm_processes::ask_for_gpu_context(const harness::bench_job& job, const env::gpu_device& device) {
  if (!m_enabled || !is_python_reference(job)) return;
  const std::lock_guard lock(m_mutex);
  for (entry& e : m_entries) {
    if (alike(e, job, device)) return e.child.ask_for_gpu_context();
  }
}

int warm_processes::gpu_contexts_held(const env::gpu_device& device) {
  const std::lock_guard lock(m_mutex);
  int held = 0;
  for (entry& e : m_entries)
    held += e.child.device_uuid == device.uuid && e.child.holds_gpu_context() ? 1 : 0;
  return held;
}

void warm_processes::end_those_asked_for_context() {
  const std::lock_guard lock(m_mutex);
  std::vector<entry> kept;
  for (entry& e : m_entries) {
    if (!e.child.was_asked_for_gpu_context()) {
      kept.push_back(std::move(e));
      continue;
    }
    harness::bench_job job = e.child.job;
    const env::gpu_device device{.uuid = e.child.device_uuid};
    e = entry{};  // ended here, before its successor starts
    if (std::optional<entry> fresh = start(std::move(job), device)) kept.push_back(std::move(*fresh));
  }
  m_entries = std::move(kept);
}

std::shared_ptr<const private_folder> warm_processes::problem_folder_for(const harness::bench_job& job,
                                                                         const env::gpu_device& device) const {
  if (!m_enabled || !is_triton_problem(job)) return nullptr;
  const std::lock_guard lock(m_mutex);
  for (const entry& e : m_entries) {
    if (e.folder && alike(e, job, device)) return e.folder;
  }
  return nullptr;
}

std::optional<prestarted_child> warm_processes::take_for(const std::vector<std::string>& wrapper,
                                                         const harness::bench_job& job, const env::gpu_device& device) {
  if (!m_enabled || !wrapper.empty() || !keeps(job)) return std::nullopt;
  const std::lock_guard lock(m_mutex);
  for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
    // A problem step's process writes only in its own folder: the job must name that one.
    if (!alike(*it, job, device) ||
        (it->folder && it->folder->path().string() != harness::evidence_dir_of(job)))
      continue;
    prestarted_child taken = std::move(it->child);
    m_entries.erase(it);
    // Its successor loads now, ready for the next command (with a folder of its own).
    harness::bench_job next = taken.job;
    if (std::optional<entry> e = start(std::move(next), device)) m_entries.push_back(std::move(*e));
    return taken;
  }
  return std::nullopt;
}

std::size_t warm_processes::waiting() const {
  const std::lock_guard lock(m_mutex);
  std::size_t count = 0;
  for (const entry& e : m_entries) count += e.child.process->waiting() ? 1 : 0;
  return count;
}

json warm_processes::describe() const {
  const std::lock_guard lock(m_mutex);
  json list = json::array();
  for (const entry& e : m_entries) {
    list.push_back(json{{"kind", is_triton_problem(e.child.job) ? "triton problem" : "python reference"},
                        {"pid", e.child.process->pid()},
                        {"gpu", e.child.device_uuid},
                        {"waiting", e.child.process->waiting()}});
  }
  return list;
}

}  // namespace kopt::pipeline
