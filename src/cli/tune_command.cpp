// kopt tune KERNEL --ref REF [dims]: the configurations of the kernel's tune() parameters
// (docs/annotations.md), each benched and judged as kopt bench does, the fastest two compared in
// turns; the table, tune_runs/tune_<timestamp>/tune_result.json and the tuned kernel
// (tune/tune_run.h, docs/tune.md).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/bench_setup.h"
#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/option_checks.h"
#include "cli/problem_options.h"
#include "cli/sampling_options.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_io.h"
#include "core/text.h"
#include "kernel/check_shapes.h"
#include "tune/tune_run.h"
#include "tune/tune_strategy.h"

namespace kopt::cli {
namespace {

class tune_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    m_sub = &sub;
    m_target.add_to(sub);
    add_sampling_options(sub, m_request.bench.job.sampling);
    add_seed_option(sub, m_request.bench.job.seed);
    add_tolerance_options(sub, m_atol, m_rtol, "(default: the reference module's, else by output type)");
    sub.add_option("--strategy", m_request.strategy,
                   "how the next configuration is chosen: " + join(tune::tune_strategies(), ", ") +
                       " (gp and tpe: Optuna's models of what was measured)")
        ->default_val("exhaustive");
    sub.add_option("--budget", m_budget, "measure at most this many configurations (cache hits are free)")
        ->check(at_least(1, "configurations"));
    sub.add_option("--minutes", m_minutes, "start no configuration after this many minutes")
        ->check(above_zero(static_cast<double>(longest_seconds) / 60, "minutes"));
    sub.add_option("--strategy-seed", m_request.seed, "the seed of the random, gp and tpe strategies")
        ->default_val(0)
        ->check(at_least<std::uint64_t>(0, "a seed"));
    sub.add_option("--compare-seconds", m_request.comparison.max_seconds,
                   "time the comparison in turns of the fastest two may take [s]")
        ->default_val(m_request.comparison.max_seconds)
        ->check(seconds_limit<double>());
    sub.add_option("--check-dims", m_check_dims,
                   "an extra shape tuned on its own too, as dimension flags in one argument: --check-dims "
                   "\"--rows=1000 --cols=1000\" (repeatable); the table says which configuration wins where")
        ->allow_extra_args(false);
    add_gpus_option(sub, m_gpus, "measure configurations side by side, one per GPU");
    sub.add_option("--out", m_out, "the folder for tune_<timestamp>/ (default: tune_runs beside the kernel)");
    sub.add_flag("--fresh", m_fresh,
                 "measure every configuration again, ignoring results kept from earlier tunes");
    add_output_flags(sub, m_output, "print the tune result as JSON", false);
    sub.footer(
        "Declare the parameters in the kernel: // kopt: tune(BLOCK, 64, 128, 256) restrict(BLOCK <= N); "
        "kopt inspect lists them (docs/annotations.md). Exit 0 with a winner, 1 when no configuration "
        "passed the judge.");
  }

  int run(const pipeline::services& services) override {
    tune::tune_request request = m_request;
    request.bench.target = m_target.to_target(*m_sub);
    request.bench.atol = m_atol;
    request.bench.rtol = m_rtol;
    request.bench.reference_timing_folder = services.reference_timing_folder;
    request.budget = m_budget;
    request.minutes = m_minutes;
    request.shapes = kernel::parse_check_dims_list(m_check_dims, request.bench.target.dims);
    request.runs_root = m_out;
    if (!m_fresh) request.cache_folder = tune::default_tune_cache_folder();
    request.progress = progress_on_terminal("tune", m_output.prints_summary());
    const auto worker = services.make_worker();
    // The GPUs are probed here only for --gpus: without it, a usage problem is said before a missing GPU.
    request.gpus = m_gpus.empty()
                       ? std::vector<int>{request.bench.target.gpu}
                       : gpus_to_use(*m_sub, m_gpus, request.bench.target.gpu, worker->probe_gpus());
    request.bench.target.gpu = request.gpus.front();  // the winner's comparison runs there
    request.make_worker = services.make_worker;
    request.warn = [](const std::string& what) { std::fprintf(stderr, "kopt: warning: %s\n", what.c_str()); };
    const tune::tune_outcome outcome = tune::run_tune(request, *worker);
    if (m_output.json) {
      std::printf("%s\n", json_text(tune::to_json(outcome.result)).c_str());
    } else {
      const printer print(m_output.level);
      print.line(tune::tune_text(outcome.result));
      print.result(fmt::format("tune folder: {} (tune_result.json)", outcome.run_dir.string()));
    }
    if (!outcome.result.winner) {
      std::fprintf(stderr, "kopt: no configuration passed the judge (see the table's reasons)\n");
      return static_cast<int>(exit_status::kernel_failed);
    }
    for (const tune::shape_result& shape : outcome.result.shapes) {
      if (shape.winner) continue;
      std::fprintf(stderr, "kopt: no configuration passed the judge at %s (see its table's reasons)\n",
                   shape.shape.c_str());
      return static_cast<int>(exit_status::kernel_failed);
    }
    return static_cast<int>(exit_status::ok);
  }

 private:
  CLI::App* m_sub = nullptr;
  bench_target_options m_target{"kopt tune", "tune on"};
  tune::tune_request m_request;
  std::optional<double> m_atol;
  std::optional<double> m_rtol;
  std::optional<int> m_budget;
  std::optional<double> m_minutes;
  std::vector<std::string> m_check_dims;
  std::string m_gpus;
  std::string m_out;
  bool m_fresh = false;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_tune_command() {
  return std::make_unique<tune_command>();
}

}  // namespace kopt::cli
