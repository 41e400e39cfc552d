#include "loop/agent_loop.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/hash.h"
#include "core/orphans.h"
#include "core/sandboxed_process.h"
#include "core/subprocess.h"
#include "loop/agent_sandbox.h"
#include "loop/candidate_handover.h"
#include "loop/command_words.h"
#include "loop/run_directory.h"
#include "loop/version_judgement.h"

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

std::map<std::string, std::string> agent_environment(const step_outcome& last, const loop_settings& settings,
                                                     const agent_settings& agent) {
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
      {"KOPT_ANALYSIS", ""},
      {"KOPT_CANDIDATES", std::to_string(agent.candidates)},
      {"KOPT_CANDIDATES_DIR", agent.candidates > 1 ? handover_dir(last.run_dir, done).string() : ""},
      {"KOPT_AGENT_DIR", agent_work_dir(last.run_dir).string()}};
  if (agent.sandbox) env.merge(sandboxed_agent_environment(agent_work_dir(last.run_dir)));
  if (m.best) {
    env["KOPT_BEST_VERSION"] = (last.run_dir / m.find(*m.best)->snapshot).string();
    env["KOPT_ANALYSIS"] = (iteration_dir(last.run_dir, *m.best) / "analysis.md").string();
  }
  return env;
}

// The agent's process, under its write sandbox with --agent-sandbox.
process_result run_agent_process(const process_request& request, const agent_settings& agent,
                                 const step_outcome& last, const loop_settings& settings) {
  if (!agent.sandbox) return run_process(request);
  const std::map<std::string, std::string>& env = request.extra_env;
  const write_allowance allowed =
      agent_allowance(settings.target.kernel, env.at("KOPT_PROPOSAL"), env.at("KOPT_CANDIDATES_DIR"),
                      agent_work_dir(last.run_dir));
  return run_process_sandboxed(request, allowed).process;
}

// Runs the agent; "" when it ended well, else why the loop must end.
std::string run_agent(const std::vector<std::string>& argv, const agent_settings& agent,
                      const step_outcome& last, const loop_settings& settings) {
  process_request request;
  request.argv = argv;
  request.extra_env = agent_environment(last, settings, agent);
  request.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(agent.timeout);
  adopt_orphans();  // what the agent leaves running becomes kopt's to end
  const process_result result = run_agent_process(request, agent, last, settings);
  // Nothing the agent started may outlive it into the next measurement (a server it left, a
  // warm kopt worker it started): it would be taken for a process the version left running.
  const std::vector<std::string> left = kill_adopted_orphans();
  std::string stderr_text = result.stderr_text;
  for (const std::string& process : left) {
    stderr_text +=
        fmt::format("kopt: the agent left process {} running; kopt ended it before measuring\n", process);
  }
  const fs::path dir = iteration_dir(last.run_dir, last.record->iteration);
  write_file_atomic(dir / "agent.stdout.txt", result.stdout_text);
  write_file_atomic(dir / "agent.stderr.txt", stderr_text);
  const std::string where = (dir / "agent.stderr.txt").string();
  if (!result.started) return fmt::format("the agent command could not start: {}", result.start_error);
  if (result.timed_out) {
    return fmt::format("the agent did not finish within --agent-timeout ({} s) and was stopped; see {}",
                       agent.timeout.count(), where);
  }
  if (!result.succeeded()) return fmt::format("the agent failed ({}); see {}", result.describe_end(), where);
  return "";
}

// "" when the agent left a new version in the kernel file (K = 1), else why not.
std::string single_version_problem(const step_outcome& last, const loop_settings& settings) {
  std::error_code ec;
  if (!fs::is_regular_file(settings.target.kernel, ec)) {
    return fmt::format("the agent removed {}: it must leave the next version there",
                       settings.target.kernel.string());
  }
  if (sha256_hex(read_text_file(settings.target.kernel, "kernel")) == last.record->written_sha256()) {
    return fmt::format("the agent wrote no new version: {} is unchanged since v{}",
                       settings.target.kernel.string(), last.record->iteration);
  }
  return "";
}

// Where an agent loop with candidates starts: v0 for a new run, the rest of a round a killed
// call left open, else the run as committed (the agent writes the next round first).
step_outcome start_or_resume(const loop_settings& settings, const loop_services& services,
                             const step_progress& progress) {
  const bool between_rounds = !settings.run_dir.empty() && fs::exists(settings.run_dir / run_manifest_name) &&
                              !read_run_manifest(settings.run_dir).open_round;
  if (!between_rounds) return run_loop_step(settings, services, progress);
  step_outcome state = resume_point(settings);
  if (state.record) return state;
  return run_loop_step(settings, services, progress);
}

// One iteration after the agent: the kernel file (K = 1) or a round of the candidates it
// handed over. Sets `problem` (and evaluates nothing) when the agent's work cannot be taken.
step_outcome next_after_agent(const loop_settings& settings, const agent_settings& agent,
                              const step_outcome& last, const loop_services& services,
                              const step_progress& progress, std::string& problem) {
  if (agent.candidates <= 1) {
    problem = single_version_problem(last, settings);
    return problem.empty() ? run_loop_step(settings, services, progress) : last;
  }
  const candidate_handover handover = read_handover(handover_dir(last.run_dir, last.record->iteration),
                                                    settings.target.kernel, agent.candidates);
  problem = handover.problem;
  return problem.empty() ? run_candidate_round(settings, handover.candidates, services, progress) : last;
}

}  // namespace

std::string stopping_reason(const step_outcome& last, const agent_settings& agent) {
  const run_manifest& m = last.manifest;
  if (last.problem_changed) {
    std::string why = last.record->reason;
    for (const auto& c : last.record->candidates) {  // in a round, the candidate that did it
      if (declared_another_problem(c)) {
        why = fmt::format("cand_{}: {}", c.candidate, c.reason);
        break;
      }
    }
    return fmt::format("v{} changed the problem: {}", last.record->iteration, why);
  }
  if (last.record->iteration >= m.max_iterations) {
    return fmt::format("reached --max-iterations ({} after v0)", m.max_iterations);
  }
  if (m.best) {
    const iteration_record& best = *m.find(*m.best);
    if (best.at_hardware_limit) {
      return fmt::format("the best version (v{}) is at the hardware limit: the diagnosis leaves no headroom",
                         best.iteration);
    }
    if (agent.target_speedup && best.speedup_vs_reference &&
        *best.speedup_vs_reference >= *agent.target_speedup) {
      return fmt::format("the best version (v{}) reached --target-speedup ({:.3f}x >= {:.3f}x)",
                         best.iteration, *best.speedup_vs_reference, *agent.target_speedup);
    }
  }
  if (m.best && iterations_without_new_best(m) >= agent.patience) {
    return fmt::format("no new best in {} iterations (--patience)", agent.patience);
  }
  return "";
}

agent_loop_outcome run_agent_loop(loop_settings settings, const agent_settings& agent,
                                  const loop_services& services, const step_progress& progress) {
  const std::vector<std::string> argv =
      split_command_words(agent.command);  // refuse a bad command before any work
  if (agent.sandbox) check_agent_sandbox_available();
  agent_loop_outcome outcome;
  outcome.last = agent.candidates > 1 ? start_or_resume(settings, services, progress)
                                      : run_loop_step(settings, services, progress);
  outcome.run_check = outcome.last.run_check;
  outcome.notices = outcome.last.notices;
  settings.run_dir = outcome.last.run_dir;
  settings.new_run = false;  // started: every later call continues it
  settings.iteration.reset();
  for (;;) {
    outcome.stop_reason = stopping_reason(outcome.last, agent);
    if (!outcome.stop_reason.empty()) {
      outcome.failed = outcome.last.problem_changed;
      return outcome;
    }
    const std::int64_t next = outcome.last.record->iteration + 1;
    if (agent.candidates > 1) {
      prepare_handover(handover_dir(outcome.last.run_dir, outcome.last.record->iteration));
      say(progress, fmt::format("agent: writing up to {} candidates of v{} ({})", agent.candidates, next,
                                agent.command));
    } else {
      say(progress, fmt::format("agent: writing v{} ({})", next, agent.command));
    }
    std::string problem = run_agent(argv, agent, outcome.last, settings);
    if (problem.empty()) {
      outcome.last = next_after_agent(settings, agent, outcome.last, services, progress, problem);
    }
    if (!problem.empty()) {
      outcome.stop_reason = problem;
      outcome.failed = true;
      return outcome;
    }
  }
}

}  // namespace kopt::loop
