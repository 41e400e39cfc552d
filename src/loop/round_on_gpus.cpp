#include "loop/round_on_gpus.h"

#include <memory>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "loop/candidate_evaluation.h"
#include "loop/version_judgement.h"
#include "pipeline/gpu_dispatch.h"

namespace kopt::loop {
namespace {

// What one candidate's thread works with: the settings aimed at its GPU and its work file, a
// copy of the run as it was when the candidate started (the thread may fill in the run's
// architecture and frozen problem, which the calling thread merges), and its record.
struct candidate_task {
  loop_settings settings;
  opened_run run;
  candidate_record record;
  std::string blocked;
};

// What a thread learned of the run itself, added where the run does not know it yet.
void merge_run_facts(run_manifest& m, const run_manifest& seen) {
  if (m.arch.empty()) m.arch = seen.arch;
  if (m.frozen.problem_sha256.empty()) m.frozen.problem_sha256 = seen.frozen.problem_sha256;
  const auto& theirs = seen.frozen.check_problem_sha256;
  m.frozen.check_problem_sha256.resize(std::max(m.frozen.check_problem_sha256.size(), theirs.size()));
  for (std::size_t i = 0; i < theirs.size(); ++i) {
    if (m.frozen.check_problem_sha256[i].empty()) m.frozen.check_problem_sha256[i] = theirs[i];
  }
}

const loop_services& services_of(const step_context& ctx, int gpu) {
  for (const gpu_steps& other : ctx.services.other_gpus) {
    if (other.gpu == gpu) return other.services;
  }
  return ctx.services;
}

class round_on_gpus {
 public:
  explicit round_on_gpus(const step_context& ctx)
      : m_ctx(ctx), m_round(*ctx.run.manifest.open_round), m_tasks(m_round.candidates.size()) {}

  void run() {
    pipeline::gpu_dispatch d;
    d.gpus.push_back(m_ctx.settings.target.gpu);
    for (const gpu_steps& other : m_ctx.services.other_gpus) d.gpus.push_back(other.gpu);
    m_several = d.gpus.size() > 1;
    for (std::size_t i = 0; i < m_round.candidates.size(); ++i) {
      if (m_round.candidates[i].finished_at.empty())
        d.pending.push_back(i);  // else committed by an earlier call
    }
    d.start = [this](std::size_t i, int gpu) { return start(i, gpu); };
    d.finish = [this](std::size_t i, int gpu) { finish(i, gpu); };
    d.gpu_failed = [this](int gpu) { return gpu_gone(gpu); };
    d.on_dropped = [this](const pipeline::dropped_gpu& dropped) {
      say(
          fmt::format("GPU {} failed while it measured candidate {} ({}): not used again in this round; the "
                      "candidate is measured again on another GPU",
                      dropped.gpu, m_round.candidates[dropped.item].candidate, dropped.reason));
    };
    pipeline::dispatch_on_gpus(d);
  }

 private:
  void say(const std::string& what) {
    const std::lock_guard<std::mutex> hold(m_say);
    m_ctx.say(what);
  }

  // Whether `gpu` stopped answering (an error while measuring on it is then the GPU's).
  bool gpu_gone(int gpu) const {
    const loop_services& steps = services_of(m_ctx, gpu);
    return steps.probe_gpus && steps.probe_gpus().device(gpu) == nullptr;
  }

  pipeline::gpu_work start(std::size_t i, int gpu) {
    auto task = std::make_unique<candidate_task>(candidate_task{
        m_ctx.settings, {m_ctx.run.dir, m_ctx.run.manifest, nullptr, false}, m_round.candidates[i], ""});
    task->settings.target.gpu = gpu;
    task->settings.target.kernel = candidate_work_file(m_ctx.settings.target.kernel, task->record.candidate);
    task->blocked = blocked_strategy(m_ctx, task->record);  // the memory is read here, on the calling thread
    candidate_task* t = task.get();
    m_tasks[i] = std::move(task);
    const int candidate = t->record.candidate;
    return [this, t, gpu, candidate] {
      const step_progress progress = [this, gpu, candidate](const std::string& what) {
        say(m_several ? fmt::format("GPU {}, candidate {}: {}", gpu, candidate, what) : what);
      };
      const step_context local{t->settings, services_of(m_ctx, gpu), progress, t->run, m_ctx.store};
      evaluate_candidate(local, m_round.iteration, t->record, t->blocked);
    };
  }

  void finish(std::size_t i, int gpu) {
    (void)gpu;
    const std::unique_ptr<candidate_task> task = std::move(m_tasks[i]);
    merge_run_facts(m_ctx.run.manifest, task->run.manifest);
    candidate_record& c = m_round.candidates[i];
    c = task->record;
    commit_candidate(m_ctx, m_round.iteration, c);
  }

  const step_context& m_ctx;
  iteration_record& m_round;
  std::vector<std::unique_ptr<candidate_task>> m_tasks;
  std::mutex m_say;
  bool m_several = false;
};

}  // namespace

void evaluate_open_round(const step_context& ctx) {
  round_on_gpus(ctx).run();
}

}  // namespace kopt::loop
