// kopt bench KERNEL [--ref REF] [dims]: the options of pipeline::run_bench (validate against the
// reference, then time kernel and reference in a measuring child) and the printing of its result.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/bench_setup.h"
#include "cli/commands.h"
#include "cli/compile_failure.h"
#include "cli/option_checks.h"
#include "cli/problem_options.h"
#include "cli/sampling_options.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_io.h"
#include "harness/bench_job.h"
#include "kernel/buffer_plan.h"
#include "pipeline/bench_pipeline.h"
#include "pipeline/bench_text.h"
#include "pipeline/child_jobs.h"

namespace kopt::cli {
namespace {

// --quiet's one line for a version that passed: its time with the interval, and the speedup.
std::string result_line(const pipeline::bench_result& r) {
  return fmt::format("{}: {}", paint_status("passed", colour_allowed(stdout)), pipeline::bench_summary_line(r));
}

class bench_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    m_sub = &sub;
    m_target.add_to(sub);
    add_sampling_options(sub, m_job.sampling);
    add_seed_option(sub, m_job.seed);
    add_tolerance_options(sub, m_atol, m_rtol, "(default: the reference module's, else by output type)");
    sub.add_flag("--hot", m_job.sampling.hot,
                 "no L2 flush before each sample (default: flush by reading); inputs are still made fresh before "
                 "every call and stay in L2 as the generator left them");
    sub.add_option("--json-out", m_json_out, "write the result JSON to this file");
    add_output_flags(sub, m_output, "print the result JSON", true);
    sub.add_flag("--profile-mode", m_profile_mode,
                 "run only warm-up and then --profile-calls calls between cuProfilerStart/Stop, for "
                 "ncu --profile-from-start off; nothing is validated or timed");
    sub.add_option("--profile-calls", m_profile_calls, "calls inside the profiler window")
        ->default_val(1)
        ->check(at_least(1, "calls"));
    sub.add_flag("--fresh-reference", m_fresh_reference,
                 "time the reference in this run even when a timing of it is kept from an earlier one (same "
                 "reference, problem, protocol, GPU and kopt, under a day old)");
    sub.add_option("--sanitize", m_sanitize,
                   "first run the kernel's validation once under compute-sanitizer with this tool (memcheck, "
                   "racecheck, initcheck, synccheck); findings fail the run before timing");
  }

  int run(const pipeline::services& services) override {
    pipeline::bench_request request;
    request.target = m_target.to_target(*m_sub);
    request.job = m_profile_mode ? pipeline::profile_settings(m_job, m_profile_calls) : m_job;
    request.atol = m_atol;
    request.rtol = m_rtol;
    request.sanitize = m_sanitize;
    request.reference_timing_folder = m_fresh_reference ? std::nullopt : services.reference_timing_folder;
    request.progress = progress_on_terminal("bench", m_output.prints_summary());
    const auto worker = services.make_worker();
    const pipeline::bench_outcome outcome = pipeline::run_bench(request, *worker);
    const pipeline::prepared_bench& prepared = outcome.prepared;
    if (prepared.failed_build) return report_compile_failure(prepared.failed_build->file, prepared.failed_build->result);
    if (outcome.sanitizer && m_output.prints_summary()) {
      std::fputs(pipeline::sanitizer_text(*outcome.sanitizer).c_str(), stdout);
    }

    const pipeline::bench_result& result = outcome.result;
    if (!m_json_out.empty()) write_json_file(m_json_out, outcome.document);
    if (m_output.json) {
      std::printf("%s\n", json_text(outcome.document).c_str());
    } else if (m_profile_mode) {
      // Nothing was timed: the profile-mode line below is the result.
    } else if (m_output.level == verbosity::quiet) {
      if (result.ok() && result.kernel) printer(m_output.level).result(result_line(result));
    } else {
      std::printf("kernel: %s on %s (%s)\n", m_target.kernel.c_str(), prepared.device.name.c_str(),
                  prepared.kernel_build.arch.name.c_str());
      std::fputs(pipeline::bench_text(result).c_str(), stdout);
      if (m_output.level == verbosity::verbose) {
        std::fputs(pipeline::phases_text(result).c_str(), stdout);
        if (result.sandbox) std::printf("kernel's process sandbox: %s\n", result.sandbox->c_str());
      }
      print_kernel_output(result);
    }
    if (m_profile_mode && result.ok()) {
      std::printf("profile mode: %d call(s) of solve() ran inside the profiler window\n", m_profile_calls);
      return static_cast<int>(exit_status::ok);
    }
    if (!result.ok()) {
      std::fprintf(stderr, "kopt: %s: %s\n", enum_name(result.status).c_str(), result.reason.c_str());
      // A Python traceback (run_kernel raised, say) says where.
      if (!result.detail.empty()) std::fprintf(stderr, "%s\n", result.detail.c_str());
    }
    return static_cast<int>(outcome.status);
  }

 private:
  // What the kernel printed while measured: said in a line, shown with --verbose (and kept in
  // the result's kernel_output).
  void print_kernel_output(const pipeline::bench_result& result) const {
    if (!result.kernel_output) return;
    const pipeline::printed_output& printed = *result.kernel_output;
    if (m_output.level == verbosity::verbose) {
      std::printf("the kernel's process printed:\n%s", pipeline::printed_output_text(printed).c_str());
    } else {
      std::printf("the kernel's process printed %llu bytes (kopt bench -v shows them; the result's kernel_output "
                  "keeps them)\n",
                  static_cast<unsigned long long>(printed.stdout_bytes + printed.stderr_bytes));
    }
  }

  CLI::App* m_sub = nullptr;
  harness::bench_job m_job;
  bench_target_options m_target{"kopt bench", "time on"};
  std::optional<double> m_atol;  // none: the reference module's, else by output type
  std::optional<double> m_rtol;
  std::string m_sanitize;
  bool m_profile_mode = false;
  int m_profile_calls = 1;
  bool m_fresh_reference = false;
  std::string m_json_out;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_bench_command() { return std::make_unique<bench_command>(); }

}  // namespace kopt::cli
