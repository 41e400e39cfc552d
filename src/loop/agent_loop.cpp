#include "loop/agent_loop.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/hash.h"
#include "core/subprocess.h"
#include "loop/command_words.h"
#include "loop/run_directory.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

void say(const step_progress& progress, const std::string& what) {
  if (progress) progress(what);
}

// Iterations since the best last changed (the best's own iteration counts as 0).
std::int64_t iterations_without_new_best(const run_manifest& m) {
  if (!m.best) return static_cast<std::int64_t>(m.iterations.size());
  return m.iterations.back().iteration - *m.best;
}

std::map<std::string, std::string> agent_environment(const step_outcome& last, const loop_settings& settings) {
  const run_manifest& m = last.manifest;
  const std::int64_t done = last.record->iteration;
  std::map<std::string, std::string> env = {
      {"KOPT_RUN_DIR", last.run_dir.string()},
      {"KOPT_ITERATION_DIR", iteration_dir(last.run_dir, done).string()},
      {"KOPT_ITERATION", std::to_string(done)},
      {"KOPT_NEXT_ITERATION", std::to_string(done + 1)},
      {"KOPT_KERNEL", fs::absolute(settings.target.kernel).string()},
      {"KOPT_PROPOSAL", (iteration_dir(last.run_dir, done) / "optimization_proposal.md").string()},
      {"KOPT_REFERENCE", m.reference},
      {"KOPT_BEST_VERSION", ""},
      {"KOPT_ANALYSIS", ""}};
  if (m.best) {
    env["KOPT_BEST_VERSION"] = (last.run_dir / m.find(*m.best)->snapshot).string();
    env["KOPT_ANALYSIS"] = (iteration_dir(last.run_dir, *m.best) / "analysis.md").string();
  }
  return env;
}

// Runs the agent; "" when it wrote a new version, else why the loop must end.
std::string run_agent(const std::vector<std::string>& argv, const agent_settings& agent, const step_outcome& last,
                      const loop_settings& settings) {
  process_request request;
  request.argv = argv;
  request.extra_env = agent_environment(last, settings);
  request.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(agent.timeout);
  const process_result result = run_process(request);
  const fs::path dir = iteration_dir(last.run_dir, last.record->iteration);
  write_file_atomic(dir / "agent.stdout.txt", result.stdout_text);
  write_file_atomic(dir / "agent.stderr.txt", result.stderr_text);
  const std::string where = (dir / "agent.stderr.txt").string();
  if (!result.started) return fmt::format("the agent command could not start: {}", result.start_error);
  if (result.timed_out) {
    return fmt::format("the agent did not finish within --agent-timeout ({} s) and was stopped; see {}",
                       agent.timeout.count(), where);
  }
  if (!result.succeeded()) return fmt::format("the agent failed ({}); see {}", result.describe_end(), where);
  std::error_code ec;
  if (!fs::is_regular_file(settings.target.kernel, ec)) {
    return fmt::format("the agent removed {}: it must leave the next version there", settings.target.kernel.string());
  }
  if (sha256_hex(read_text_file(settings.target.kernel, "kernel")) == last.record->source_sha256) {
    return fmt::format("the agent wrote no new version: {} is unchanged since v{}", settings.target.kernel.string(),
                       last.record->iteration);
  }
  return "";
}

}  // namespace

std::string stopping_reason(const step_outcome& last, const agent_settings& agent) {
  const run_manifest& m = last.manifest;
  if (last.problem_changed) return fmt::format("v{} changed the problem: {}", last.record->iteration, last.record->reason);
  if (last.record->iteration >= m.max_iterations) {
    return fmt::format("reached --max-iterations ({} after v0)", m.max_iterations);
  }
  if (m.best) {
    const iteration_record& best = *m.find(*m.best);
    if (best.at_hardware_limit) {
      return fmt::format("the best version (v{}) is at the hardware limit: the diagnosis leaves no headroom", best.iteration);
    }
    if (agent.target_speedup && best.speedup_vs_reference && *best.speedup_vs_reference >= *agent.target_speedup) {
      return fmt::format("the best version (v{}) reached --target-speedup ({:.3f}x >= {:.3f}x)", best.iteration,
                         *best.speedup_vs_reference, *agent.target_speedup);
    }
  }
  if (m.best && iterations_without_new_best(m) >= agent.patience) {
    return fmt::format("no new best in {} iterations (--patience)", agent.patience);
  }
  return "";
}

agent_loop_outcome run_agent_loop(loop_settings settings, const agent_settings& agent, const loop_services& services,
                                  const step_progress& progress) {
  const std::vector<std::string> argv = split_command_words(agent.command);  // refuse a bad command before any work
  agent_loop_outcome outcome;
  outcome.last = run_loop_step(settings, services, progress);
  settings.run_dir = outcome.last.run_dir;
  settings.iteration.reset();
  for (;;) {
    outcome.stop_reason = stopping_reason(outcome.last, agent);
    if (!outcome.stop_reason.empty()) {
      outcome.failed = outcome.last.problem_changed;
      return outcome;
    }
    say(progress, fmt::format("agent: writing v{} ({})", outcome.last.record->iteration + 1, agent.command));
    const std::string agent_problem = run_agent(argv, agent, outcome.last, settings);
    if (!agent_problem.empty()) {
      outcome.stop_reason = agent_problem;
      outcome.failed = true;
      return outcome;
    }
    outcome.last = run_loop_step(settings, services, progress);
  }
}

}  // namespace kopt::loop
