#pragma once
// A measuring worker that replays what a real one recorded: the GPUs it found and the result
// (or the death) of each measuring child. It keeps every job it was given, so tests can check
// what a pipeline asked for, and never touches a GPU: pipelines run end to end on the CPU.

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "pipeline/measuring_worker.h"

namespace kopt::pipeline {

struct recorded_run {
  std::vector<std::string> wrapper;
  harness::bench_job job;
  env::gpu_device device;
  int timeout_s = 0;
};

// Versions opened side by side to take turns, on one GPU.
struct recorded_turns_opened {
  std::vector<harness::bench_job> jobs;
  env::gpu_device device;
};

// Versions taking turns as a responder says; "block I CALLS" and "close" go to `events`.
class recorded_turns final : public block_timing {
 public:
  recorded_turns(std::vector<harness::bench_job> jobs,
                 std::function<timing_block(const harness::bench_job&, int)> respond,
                 std::function<void(std::string)> note)
      : m_jobs(std::move(jobs)),
        m_respond(std::move(respond)),
        m_note(std::move(note)),
        m_failures(m_jobs.size()) {}

  timing_block time_block(std::size_t version, int calls) override {
    m_note(fmt::format("block {} {}", version, calls));
    if (!m_failures.at(version).empty()) return timing_block{std::nullopt, "", m_failures[version]};
    timing_block block = m_respond(m_jobs.at(version), calls);
    m_failures[version] = block.failure;
    return block;
  }

  std::vector<std::string> close() override {
    m_note("close");
    return std::vector<std::string>(m_jobs.size());
  }

 private:
  std::vector<harness::bench_job> m_jobs;
  std::function<timing_block(const harness::bench_job&, int)> m_respond;
  std::function<void(std::string)> m_note;
  std::vector<std::string> m_failures;
};

// Safe to share between threads (a command spreading its work over GPUs lends it to each): what
// it keeps is written under a lock, and the responders are called outside it.
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

  env::gpu_probe_result probe_gpus() override {
    const std::lock_guard<std::mutex> hold(m_mutex);
    return m_gpus;
  }

  // A GPU that falls off the bus at its next child: that run throws kopt::error and the probe
  // no longer lists it.
  void lose_gpu_at_next_run(int ordinal) {
    const std::lock_guard<std::mutex> hold(m_mutex);
    m_losing = ordinal;
  }

  wrapped_child_run run(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                        const env::gpu_device& device, int timeout_s) override {
    {
      const std::lock_guard<std::mutex> hold(m_mutex);
      lose_gpu_if_due(device);
      m_runs.push_back({wrapper, job, device, timeout_s});
      m_events.push_back("run " + enum_name(job.kind));
    }
    return m_respond(job);
  }

  void prestart(const harness::bench_job& job, const env::gpu_device& device) override {
    const std::lock_guard<std::mutex> hold(m_mutex);
    m_prestarts.push_back({{}, job, device, 0});
    m_events.push_back("prestart " + enum_name(job.kind));
  }

  void drop_prestarted() override { note("drop prestarted"); }

  // How a version's block of `calls` ends in a comparison in turns (the real worker's children
  // time it); without one the worker cannot take turns, as the base class says.
  using block_responder = std::function<timing_block(const harness::bench_job& job, int calls)>;
  void respond_to_blocks(block_responder respond) { m_blocks = std::move(respond); }

  std::unique_ptr<block_timing> open_block_timing(const std::vector<harness::bench_job>& jobs,
                                                  const env::gpu_device& device, int block_timeout_s) override {
    if (!m_blocks) return measuring_worker::open_block_timing(jobs, device, block_timeout_s);
    {
      const std::lock_guard<std::mutex> hold(m_mutex);
      lose_gpu_if_due(device);
      m_opened.push_back({jobs, device});
    }
    note(fmt::format("open {} versions in turns", jobs.size()));
    return std::make_unique<recorded_turns>(jobs, m_blocks,
                                            [this](std::string event) { note(std::move(event)); });
  }

  const std::vector<recorded_run>& runs() const { return m_runs; }
  const std::vector<recorded_run>& prestarts() const { return m_prestarts; }
  const std::vector<recorded_turns_opened>& opened() const { return m_opened; }
  // "prestart reference", "run kernel", "run reference", "drop prestarted", in the order asked.
  const std::vector<std::string>& events() const { return m_events; }

 private:
  // Under the lock.
  void lose_gpu_if_due(const env::gpu_device& device) {
    if (m_losing != device.ordinal) return;
    std::erase_if(m_gpus.devices, [&](const env::gpu_device& d) { return d.ordinal == device.ordinal; });
    m_losing.reset();
    throw error(fmt::format("GPU {} stopped answering (recorded)", device.ordinal));
  }

  void note(std::string event) {
    const std::lock_guard<std::mutex> hold(m_mutex);
    m_events.push_back(std::move(event));
  }

  std::mutex m_mutex;
  env::gpu_probe_result m_gpus;
  responder m_respond;
  std::vector<recorded_run> m_runs;
  std::vector<recorded_run> m_prestarts;
  std::vector<std::string> m_events;
  block_responder m_blocks;
  std::optional<int> m_losing;
  std::vector<recorded_turns_opened> m_opened;
};

// The worker a command makes for itself (services::make_worker), lent by a test that keeps it
// and reads what it recorded after the command has ended: every call goes to `worker`.
class lent_worker final : public measuring_worker {
 public:
  explicit lent_worker(measuring_worker& worker) : m_worker(worker) {}

  env::gpu_probe_result probe_gpus() override { return m_worker.probe_gpus(); }
  void prestart(const harness::bench_job& job, const env::gpu_device& device) override { m_worker.prestart(job, device); }
  void drop_prestarted() override { m_worker.drop_prestarted(); }
  std::shared_ptr<const private_folder> warm_problem_folder(const harness::bench_job& job,
                                                            const env::gpu_device& device) override {
    return m_worker.warm_problem_folder(job, device);
  }
  std::unique_ptr<block_timing> open_block_timing(const std::vector<harness::bench_job>& jobs,
                                                  const env::gpu_device& device, int block_timeout_s) override {
    return m_worker.open_block_timing(jobs, device, block_timeout_s);
  }
  wrapped_child_run run(const std::vector<std::string>& wrapper, const harness::bench_job& job,
                        const env::gpu_device& device, int timeout_s) override {
    return m_worker.run(wrapper, job, device, timeout_s);
  }

 private:
  measuring_worker& m_worker;
};

}  // namespace kopt::pipeline
