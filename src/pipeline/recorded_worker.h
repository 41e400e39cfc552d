#pragma once
// A measuring worker that replays what a real one recorded: the GPUs it found and the result
// (or the death) of each measuring child. It keeps every job it was given, so tests can check
// what a pipeline asked for, and never touches a GPU: pipelines run end to end on the CPU.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "pipeline/measuring_worker.h"

namespace kopt::pipeline {

struct recorded_run {
  std::vector<std::string> wrapper;
  harness::bench_job job;
  env::gpu_device device;
  int timeout_s = 0;
};

class recorded_worker final : public measuring_worker {
 public:
  // How a child ended for `job`; it may also leave what a real child leaves (the outputs in
  // the job's evidence folder).
  using responder = std::function<wrapped_child_run(const harness::bench_job& job)>;

  // `gpus` as the real probe found them; every child ends as `child` did.
  recorded_worker(env::gpu_probe_result gpus, wrapped_child_run child)
      : m_gpus(std::move(gpus)), m_respond([child = std::move(child)](const harness::bench_job&) { return child; }) {}
  // Each child ends as `respond` says for its job.
  recorded_worker(env::gpu_probe_result gpus, responder respond)
      : m_gpus(std::move(gpus)), m_respond(std::move(respond)) {}

  env::gpu_probe_result probe_gpus() override { return m_gpus; }

  wrapped_child_run run(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                        const env::gpu_device& device, int timeout_s) override {
    m_runs.push_back({wrapper, job, device, timeout_s});
    m_events.push_back("run " + job.role);
    return m_respond(job);
  }

  void prestart(const harness::bench_job& job, const env::gpu_device& device) override {
    m_prestarts.push_back({{}, job, device, 0});
    m_events.push_back("prestart " + job.role);
  }

  void drop_prestarted() override { m_events.push_back("drop prestarted"); }

  const std::vector<recorded_run>& runs() const { return m_runs; }
  const std::vector<recorded_run>& prestarts() const { return m_prestarts; }
  // "prestart reference", "run kernel", "run reference", "drop prestarted", in the order asked.
  const std::vector<std::string>& events() const { return m_events; }

 private:
  env::gpu_probe_result m_gpus;
  responder m_respond;
  std::vector<recorded_run> m_runs;
  std::vector<recorded_run> m_prestarts;
  std::vector<std::string> m_events;
};

}  // namespace kopt::pipeline
