// kopt loop KERNEL --max-iterations N [--ref REF] [dims]: one iteration of the optimization loop
// per call (an agent or a person edits the kernel between calls), or with --agent CMD up to N
// iterations with CMD writing each next version (or up to --candidates K of them). The options
// of loop::run_loop_step and loop::run_agent_loop, and the printing of what they did.

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/bench_setup.h"
#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/option_checks.h"
#include "cli/problem_options.h"
#include "cli/sampling_options.h"
#include "cli/terminal.h"
#include "core/document.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"
#include "kernel/check_shapes.h"
#include "loop/agent_loop.h"
#include "loop/final_confirmation.h"
#include "loop/loop_step.h"
#include "loop/run_directory.h"
#include "loop/run_ledger.h"
#include "loop/run_manifest.h"
#include "loop/run_settings.h"
#include "memory/memory_location.h"
#include "memory/memory_store.h"
#include "pipeline/bench_pipeline.h"
#include "pipeline/measuring_worker.h"
#include "profile/ncu_command.h"
#include "tune/tune_strategy.h"

namespace kopt::cli {
namespace {

namespace fs = std::filesystem;

std::string median_text(const loop::version_record& r) {
  return r.median_ms ? fmt::format("{:.6g} ms", *r.median_ms) : std::string("not timed");
}

std::string record_line(const printer& print, const loop::iteration_record& r) {
  return fmt::format("v{}{} {}: {} ({})", r.iteration,
                     r.attempt > 1 ? fmt::format(" attempt {}", r.attempt) : "",
                     print.status(enum_name(r.outcome)), r.reason, median_text(r));
}

// A round's candidates, one line each, under their iteration's line.
void print_candidates(const printer& print, const loop::iteration_record& r) {
  for (const auto& c : r.candidates) {
    print.line(fmt::format("  cand_{} {}: {} ({})", c.candidate, print.status(enum_name(c.outcome)), c.reason,
                           median_text(c)));
  }
}

// --verbose: what the record holds besides its line.
void print_record_details(const printer& print, const loop::iteration_record& r) {
  print.detail(fmt::format(
      "    tags: {}{}", r.tags.empty() ? "(none)" : fmt::format("{}", fmt::join(r.tags, ", ")),
      r.bottleneck.empty()
          ? ""
          : "; bottleneck: " + r.bottleneck + (r.at_hardware_limit ? " (at the hardware limit)" : "")));
  if (r.tuned) print.detail("    tuned: " + loop::tuned_text(*r.tuned));
}

json step_json(const loop::step_outcome& step, const loop::record_check& check) {
  json out = loop::to_json(step.manifest);
  out["run_dir"] = step.run_dir.string();
  out["this_iteration"] = step.record ? json(step.record->iteration) : json(nullptr);
  out["record_check"] = loop::to_json(check);
  out["notices"] = step.notices;
  return out;
}

// What the confirmed best is still limited by, and what the run tried and blocked: the rest of
// the answer an agent pastes.
void print_diagnosis_and_blocked(const printer& print, const loop::run_manifest& m,
                                 const loop::confirmation_attempt& a) {
  if (const loop::iteration_record* best = m.find(a.iteration);
      best != nullptr && !best->bottleneck.empty()) {
    print.line(fmt::format("  diagnosis: {}{}", best->bottleneck,
                           best->at_hardware_limit ? " (at the hardware limit)" : ""));
  }
  std::vector<std::string> blocked;
  for (const std::string& fp : m.blocked) {
    const std::vector<std::string>* tags = m.tags_of(fp);
    blocked.push_back(tags == nullptr ? fp : fmt::format("{} ({})", fmt::join(*tags, ", "), fp));
  }
  print.line(
      fmt::format("  tried: {} version(s) after v0; blocked: {}", m.iterations.size() - 1,
                  blocked.empty() ? std::string("none") : fmt::format("{}", fmt::join(blocked, "; "))));
}

// The final confirmation's answer: each version it tried, then the confirmed best (the only
// figures announced for the run) or why there is none.
void print_confirmation(const printer& print, const loop::confirmed_run& done) {
  const loop::final_confirmation& c = done.confirmation;
  if (c.verdict == loop::confirmation_verdict::nothing_to_confirm) {
    print.line(fmt::format("confirmation: no version beat the baseline v{}; nothing to confirm", c.baseline));
    return;
  }
  for (const auto& a : c.attempts) {
    if (!a.confirmed)
      print.line(fmt::format("v{} {}: failed the final confirmation: {}", a.iteration,
                             print.status("rejected"), a.reason));
  }
  if (const loop::confirmation_attempt* a = c.confirmed_attempt()) {
    print.line(fmt::format("best (confirmed): v{} at {:.6g} ms, {} ({}); clean under {}", a->iteration,
                           a->median_ms.value_or(0), loop::confirmed_speedups(*a, c.baseline), a->method,
                           fmt::format("{}", fmt::join(loop::confirmation_sanitizers, ", "))));
    if (a->speed_of_light) print.line("  " + measure::speed_of_light_line(*a->speed_of_light));
    print_diagnosis_and_blocked(print, done.manifest, *a);
  } else {
    print.line("best: none survived the final confirmation");
  }
  if (!done.kernel_file.empty()) print.line(done.kernel_file);
}

// What the step did or offers besides its record (the toolkit's memory), on standard error.
void print_notices(const std::vector<std::string>& notices) {
  for (const std::string& notice : notices) std::fprintf(stderr, "kopt: note: %s\n", notice.c_str());
}

// A run whose earlier record could not be checked goes on, said so (docs/loop.md).
void warn_if_unverified(const std::filesystem::path& run_dir, const loop::record_check& check) {
  if (check.status != "unverified") return;
  std::fprintf(stderr, "kopt: warning: run folder %s is unverified: %s; kopt records it from now on\n",
               run_dir.c_str(), check.detail.c_str());
}

class loop_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    m_sub = &sub;
    m_target.add_to(sub);
    sub.get_option("kernel")->required(false);  // --finish takes the run's own
    sub.add_option("--max-iterations", m_max_iterations, "iterations after v0 (v0..vN)")
        ->check(within<std::int64_t>(0, loop::most_iterations, "iterations"));
    sub.add_option("--run-dir", m_run_dir,
                   "the run folder to continue (default: a new optimize_runs/run_<time> "
                   "beside the kernel)");
    sub.add_flag("--new-run", m_settings.new_run, "start a new run in --run-dir (which must hold none)");
    sub.add_option("--iteration", m_iteration, "the iteration this call evaluates (must be the run's next)")
        ->check(within<std::int64_t>(0, loop::most_iterations, "an iteration"));
    sub.add_flag("--preflight-only", m_settings.preflight_only,
                 "check the environment into the run folder and stop");
    add_sampling_options(sub, m_settings.job.sampling);
    sub.add_option("--compare-seconds", m_settings.comparison.max_seconds,
                   "time a comparison in turns with the parent may take [s]; unsettled by then: inconclusive")
        ->default_val(m_settings.comparison.max_seconds)
        ->check(seconds_limit<double>());
    add_seed_option(sub, m_settings.job.seed);
    add_tolerance_options(sub, m_atol, m_rtol, "(default by output type); frozen for the run");
    sub.add_option("--ncu-bin", m_settings.ncu_bin, "ncu to use (default: PATH, CUDA_HOME, /usr/local/cuda)");
    sub.add_option("--kernel-name-regex", m_settings.capture.kernel_name_regex,
                   "profile only kernels whose name matches")
        ->check(text_check(profile::kernel_name_regex_problem, "a regular expression"));
    m_launch_skip = sub.add_option("--launch-skip", m_skip, "launches to skip in kopt's profiler window")
                        ->check(at_least(0, "launches"));
    m_launch_count =
        sub.add_option("--launch-count", m_count, "launches to profile in kopt's profiler window")
            ->check(at_least(1, "launches"));
    sub.add_option("--op", m_settings.op,
                   "the operator's name in the memory (default: the kernel's file stem)");
    sub.add_option("--op-family", m_settings.op_family,
                   "the operator's family in the memory (softmax, gemm, ...)");
    sub.add_option(
           "--global-memory-file", m_settings.global_memory_file,
           "the Python toolkit's global_strategy_memory.json to import when the run starts (one found "
           "beside the kernel is offered once instead)")
        ->check(CLI::ExistingFile);
    sub.add_option("--memory-db", m_memory_db,
                   "the strategy memory: a SQLite file or a postgresql:// URL "
                   "(default: $KOPT_MEMORY_DB, else $XDG_DATA_HOME/kopt/memory.db)");
    sub.add_option("--agent", m_agent.command,
                   "run up to --max-iterations iterations, running this command after each to write the next "
                   "version (split into words, never run through a shell; see docs/loop.md)");
    sub.add_option("--agent-timeout", m_agent_timeout_s, "time limit of one agent run [s]")
        ->default_val(1800)
        ->check(seconds_limit<int>());
    sub.add_option("--patience", m_agent.patience,
                   "with --agent: stop after this many iterations without a new best")
        ->default_val(3)
        ->check(at_least(1, "iterations"));
    sub.add_option("--target-speedup", m_target_speedup,
                   "with --agent: stop once the best is this much faster than the reference")
        ->check(above_zero(1e6, "a speedup"));
    sub.add_option(
           "--check-dims", m_check_dims,
           "an extra shape every version must also pass the judge at (validation only), as dimension "
           "flags in one argument: --check-dims \"--rows=1000 --cols=1000\" (repeatable; frozen for the run)")
        ->allow_extra_args(false);
    sub.add_flag(
        "--agent-sandbox", m_agent.sandbox,
        "with --agent: the agent may write only the kernel file, its proposal, the candidates folder "
        "and its own work folder (Linux Landlock; see docs/loop.md)");
    sub.add_option(
           "--candidates", m_agent.candidates,
           "with --agent: versions the agent may write per iteration, each evaluated (see docs/loop.md)")
        ->default_val(1)
        ->check(at_least(1, "candidates"));
    add_gpus_option(sub, m_gpus, "with --candidates: spread a round's candidates");
    sub.add_flag(
        "--tune", m_tune,
        "tune each version that declares tune(...) parameters before it is judged, and judge it at the "
        "winning values (docs/tune.md)");
    sub.add_option("--tune-budget", m_tuning.budget,
                   "with --tune: configurations measured per version, at most")
        ->default_val(m_tuning.budget)
        ->check(at_least(1, "configurations"));
    sub.add_option(
           "--tune-strategy", m_tuning.strategy,
           "with --tune: how the next configuration is chosen: " + join(tune::tune_strategies(), ", "))
        ->default_val(m_tuning.strategy);
    sub.add_flag("--finish", m_finish,
                 "confirm the best version of the run in --run-dir now (re-judged from its snapshot, under "
                 "compute-sanitizer, compared in turns with v0) and print the answer; see docs/loop.md");
    add_output_flags(sub, m_output, "print the run manifest (with run_dir) instead of the summary", true);
  }

  int run(const pipeline::services& services) override {
    if (m_finish) return finish(services);
    if (m_target.kernel.empty()) throw error("kopt loop: kernel is required (kopt loop --help)");
    if (m_sub->get_option("--max-iterations")->count() == 0) {
      throw error("kopt loop: --max-iterations is required (kopt loop --help)");
    }
    m_settings.target = m_target.to_target(*m_sub);
    m_settings.max_iterations = m_max_iterations;
    if (!m_run_dir.empty()) m_settings.run_dir = m_run_dir;
    m_settings.iteration = m_iteration;
    if (m_atol) m_settings.atol = m_atol;
    if (m_rtol) m_settings.rtol = m_rtol;
    if (m_launch_skip->count() > 0) m_settings.capture.launch_skip = m_skip;
    if (m_launch_count->count() > 0) m_settings.capture.launch_count = m_count;
    m_settings.memory_db = memory::default_memory_path(m_memory_db);
    m_agent.timeout = std::chrono::seconds(m_agent_timeout_s);
    m_agent.target_speedup = m_target_speedup;
    m_settings.check_shapes = kernel::parse_check_dims_list(m_check_dims, m_settings.target.dims);
    pipeline::check_sampling_times(m_settings.job);
    if (!m_agent.command.empty() && (m_settings.preflight_only || m_iteration)) {
      throw error("--agent runs the iterations itself: leave out --preflight-only and --iteration");
    }
    if (m_agent.sandbox && m_agent.command.empty()) {
      throw error(
          "--agent-sandbox needs --agent: it restricts what the agent command may write (docs/loop.md)");
    }
    if (m_agent.candidates > 1 && m_agent.command.empty()) {
      throw error(
          "--candidates needs --agent: the agent writes the candidates of each iteration (docs/loop.md)");
    }
    if (!m_tune && (m_sub->get_option("--tune-budget")->count() > 0 ||
                    m_sub->get_option("--tune-strategy")->count() > 0)) {
      throw error("--tune-budget and --tune-strategy need --tune (docs/tune.md)");
    }
    if (m_tune) {
      // An unknown name, or a missing package, is said before anything is measured.
      tune::check_tune_strategy(m_tuning.strategy, "--tune-strategy");
      m_settings.tune = m_tuning;
    }
    const std::shared_ptr<pipeline::measuring_worker> worker = services.make_worker();
    loop::loop_services steps = loop::gpu_services(*worker);
    if (!m_gpus.empty()) spread_rounds(services, *worker, steps);
    const loop::step_progress progress = progress_on_terminal("loop", m_output.prints_summary());
    if (!m_agent.command.empty()) {
      // One kopt for every iteration: the next reference's Python loads while the agent works.
      pipeline::keep_processes_warm();
      return run_with_agent(steps, progress);
    }
    loop::step_outcome step = loop::run_loop_step(m_settings, steps, progress);
    print_notices(step.notices);
    warn_if_unverified(step.run_dir, step.run_check);
    std::optional<loop::confirmed_run> confirmed;
    if (loop::ends_the_run(step)) {
      confirmed = loop::finish_run(continuing(step.run_dir), steps, progress);
      step.manifest = confirmed->manifest;
    }
    if (m_output.json) {
      json out = step_json(step, step.run_check);
      out["confirmation"] = confirmed ? to_document(confirmed->confirmation) : json(nullptr);
      std::printf("%s\n", json_text(out).c_str());
    } else if (!step.record) {
      printer(m_output.level)
          .result(fmt::format("preflight passed; wrote preflight_check.md in {} (start the run there "
                              "with --run-dir {} --new-run)",
                              step.run_dir.string(), step.run_dir.string()));
    } else {
      const printer print(m_output.level);
      // The run so far, for --verbose; then this iteration's line, the result.
      for (const auto& r : step.manifest.iterations) {
        if (r.iteration == step.record->iteration) continue;
        print.detail(record_line(print, r));
        print_record_details(print, r);
      }
      print.result(record_line(print, *step.record));
      print_candidates(print, *step.record);
      print_record_details(print, *step.record);
      print_kernel_output(print, step);
      print_next_steps(print, step, confirmed.has_value());
      if (confirmed) print_confirmation(print, *confirmed);
    }
    const bool rejected = (step.record && step.record->outcome == loop::version_outcome::rejected) ||
                          (confirmed && !confirmed->survived());
    return static_cast<int>(rejected ? exit_status::kernel_failed : exit_status::ok);
  }

 private:
  int run_with_agent(const loop::loop_services& services, const loop::step_progress& progress) {
    loop::agent_loop_outcome outcome = loop::run_agent_loop(m_settings, m_agent, services, progress);
    std::optional<loop::confirmed_run> confirmed;
    if (!outcome.failed) {  // a natural end: the answer is the confirmation's
      confirmed = loop::finish_run(continuing(outcome.last.run_dir), services, progress);
      outcome.last.manifest = confirmed->manifest;
    }
    const loop::run_manifest& m = outcome.last.manifest;
    print_notices(outcome.notices);
    warn_if_unverified(outcome.last.run_dir, outcome.run_check);
    if (m_output.json) {
      json out = step_json(outcome.last, outcome.run_check);
      out["notices"] = outcome.notices;
      out["stop_reason"] = outcome.stop_reason;
      out["confirmation"] = confirmed ? to_document(confirmed->confirmation) : json(nullptr);
      std::printf("%s\n", json_text(out).c_str());
    } else {
      const printer print(m_output.level);
      for (const auto& r : m.iterations) {
        print.line(record_line(print, r));
        print_candidates(print, r);
        print_record_details(print, r);
      }
      print.line(fmt::format("stopped: {}", outcome.stop_reason));
      if (confirmed) {
        print_confirmation(print, *confirmed);
      } else if (m.best) {
        print.line(
            fmt::format("best so far: v{} ({}); not confirmed yet: run kopt loop --finish --run-dir {}",
                        *m.best, m.find(*m.best)->snapshot, outcome.last.run_dir.string()));
      }
      print.result(fmt::format("run folder: {} (final_summary.md)", outcome.last.run_dir.string()));
    }
    if (outcome.failed) std::fprintf(stderr, "kopt: loop ended early: %s\n", outcome.stop_reason.c_str());
    const bool failed = outcome.failed || (confirmed && !confirmed->survived());
    if (confirmed && !confirmed->survived())
      std::fprintf(stderr, "kopt: no version survived the final confirmation\n");
    return static_cast<int>(failed ? exit_status::kernel_failed : exit_status::ok);
  }

  // The settings of a call that continues the run in `run_dir` (the confirmation reopens it).
  loop::loop_settings continuing(const fs::path& run_dir) const {
    loop::loop_settings s = m_settings;
    s.run_dir = run_dir;
    s.new_run = false;
    s.iteration.reset();
    s.preflight_only = false;
    return s;
  }

  // --gpus: a round's candidates on several GPUs, each with a measuring worker of its own; the
  // first GPU chosen measures everything else.
  void spread_rounds(const pipeline::services& services, pipeline::measuring_worker& worker,
                     loop::loop_services& steps) {
    if (m_agent.candidates < 2) {
      throw error(
          "--gpus spreads the candidates of a round over GPUs: give --agent CMD --candidates K (K > 1)");
    }
    const std::vector<int> gpus = gpus_to_use(*m_sub, m_gpus, m_settings.target.gpu, worker.probe_gpus());
    m_settings.target.gpu = gpus.front();
    for (std::size_t i = 1; i < gpus.size(); ++i) {
      steps.other_gpus.push_back({gpus[i], loop::gpu_services(services.make_worker())});
    }
  }

  // kopt loop --finish --run-dir RUN: the run's own settings, confirmed now.
  int finish(const pipeline::services& services) {
    if (m_run_dir.empty()) throw error("--finish confirms a run: name its folder with --run-dir RUN");
    if (!m_agent.command.empty() || m_settings.preflight_only || m_iteration || m_settings.new_run) {
      throw error(
          "--finish confirms the run as it is: leave out --agent, --iteration, --preflight-only and "
          "--new-run");
    }
    loop::loop_settings settings = loop::settings_of_run(m_run_dir);
    settings.comparison = m_settings.comparison;
    // The manifest keeps a server's URL without its password: the one given names it again.
    if (const std::optional<std::string> named = memory::named_memory_location(m_memory_db)) {
      settings.memory_db = memory::with_credentials(settings.memory_db.string(), *named);
    }
    const auto worker = services.make_worker();
    const loop::loop_services steps = loop::gpu_services(*worker);
    const loop::step_progress progress = progress_on_terminal("loop", m_output.prints_summary());
    const loop::confirmed_run done = loop::finish_run(settings, steps, progress);
    if (m_output.json) {
      json out = loop::to_json(done.manifest);
      out["run_dir"] = fs::absolute(m_run_dir).string();
      out["confirmation"] = to_document(done.confirmation);
      std::printf("%s\n", json_text(out).c_str());
    } else {
      const printer print(m_output.level);
      print_confirmation(print, done);
      print.result(
          fmt::format("run folder: {} ({})", fs::absolute(m_run_dir).string(), loop::confirmation_file_name));
    }
    if (!done.survived()) std::fprintf(stderr, "kopt: no version survived the final confirmation\n");
    return static_cast<int>(done.survived() ? exit_status::ok : exit_status::kernel_failed);
  }

  // What the version printed while measured (its printf), kept in the iteration's folder.
  static void print_kernel_output(const printer& print, const loop::step_outcome& step) {
    const std::filesystem::path printed =
        loop::iteration_dir(step.run_dir, step.record->iteration) / "kernel_output.txt";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(printed, ec)) return;
    if (print.verbose()) {
      print.detail("the kernel's process printed:\n" +
                   std::string(trim(read_text_file(printed, "kernel output"))));
    } else {
      print.line(fmt::format("the kernel's process printed: {} (kopt loop -v shows it)", printed.string()));
    }
  }

  static void print_next_steps(const printer& print, const loop::step_outcome& step, bool confirmed) {
    const loop::run_manifest& m = step.manifest;
    const std::int64_t done = step.record->iteration;
    if (m.best && !confirmed)
      print.line(fmt::format("best so far: v{} ({}); not confirmed yet", *m.best, m.find(*m.best)->snapshot));
    print.line(fmt::format("run folder: {}", step.run_dir.string()));
    if (done >= m.max_iterations) {
      print.line(fmt::format("the run is complete (v0..v{}): see final_summary.md", m.max_iterations));
      return;
    }
    print.line(fmt::format(
        "next: write v{} into {}, fill the strategy tags in {}/iter_v{}/optimization_proposal.md, "
        "then run the same command with --run-dir {}",
        done + 1, m.kernel, step.run_dir.string(), done, step.run_dir.string()));
  }

  CLI::App* m_sub = nullptr;
  bench_target_options m_target{"kopt loop", "measure on"};
  std::string m_gpus;
  loop::loop_settings m_settings;
  loop::agent_settings m_agent;
  std::int64_t m_max_iterations = 0;
  std::string m_run_dir;
  std::optional<std::int64_t> m_iteration;
  std::optional<double> m_atol;
  std::optional<double> m_rtol;
  int m_skip = 0;
  int m_count = 0;
  CLI::Option* m_launch_skip = nullptr;
  CLI::Option* m_launch_count = nullptr;
  std::optional<std::string> m_memory_db;
  int m_agent_timeout_s = 1800;
  std::optional<double> m_target_speedup;
  std::vector<std::string> m_check_dims;
  bool m_finish = false;
  bool m_tune = false;
  loop::loop_tuning m_tuning;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_loop_command() {
  return std::make_unique<loop_command>();
}

}  // namespace kopt::cli
