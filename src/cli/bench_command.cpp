// kopt bench KERNEL... [--ref REF] [dims]: the options of pipeline::run_bench (validate against
// the reference, then time kernel and reference in a measuring child) and the printing of its
// result. Several kernels are benched one after another, or at once on the GPUs --gpus names,
// each with its reference on its own GPU.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/bench_setup.h"
#include "cli/commands.h"
#include "cli/compile_failure.h"
#include "cli/device_option.h"
#include "cli/option_checks.h"
#include "cli/problem_options.h"
#include "cli/sampling_options.h"
#include "cli/spread_files.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_io.h"
#include "harness/bench_job.h"
#include "kernel/buffer_plan.h"
#include "pipeline/bench_pipeline.h"
#include "pipeline/bench_text.h"
#include "pipeline/child_jobs.h"
#include "pipeline/spread_results.h"

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
    add_gpus_option(sub, m_gpus, "spread the kernels");
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
    const std::vector<std::string>& kernels = m_target.kernels;
    if (m_profile_mode && kernels.size() > 1) {
      throw error("--profile-mode runs one kernel inside the profiler window: give one kernel");
    }
    const pipeline::bench_request common = common_request(services);
    std::vector<std::optional<pipeline::bench_outcome>> outcomes(kernels.size());
    std::vector<int> ran_on(kernels.size(), m_target.gpu);
    std::vector<int> statuses(kernels.size(), 0);
    spread_files spread;
    spread.command = "bench";
    spread.files = kernels;
    spread.gpus_option = m_gpus;
    spread.gpu = m_target.gpu;
    spread.progress_wanted = m_output.prints_summary();
    spread.run = [&](std::size_t i, int gpu, pipeline::measuring_worker& worker,
                     const progress_function& progress) {
      pipeline::bench_request request = common;
      request.target.kernel = kernels[i];
      request.target.gpu = gpu;
      request.progress = progress;
      outcomes[i] = pipeline::run_bench(request, worker);
      ran_on[i] = gpu;
    };
    // Each kernel's result is printed as its bench ends; the documents wait for all.
    spread.finished = [&](std::size_t i, int gpu) { statuses[i] = report(kernels[i], gpu, *outcomes[i]); };
    run_spread_files(*m_sub, spread, services);

    if (kernels.size() == 1) {
      if (outcomes[0]->prepared.failed_build) return statuses[0];
      write_documents(outcomes[0]->document);
      return statuses[0];
    }
    std::vector<pipeline::spread_entry> entries;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      const pipeline::bench_outcome& o = *outcomes[i];
      entries.push_back(pipeline::spread_entry_of(kernels[i], ran_on[i], o.prepared.failed_build,
                                                  [&o] { return o.document; }));
    }
    write_documents(pipeline::to_json(pipeline::spread_results{"kopt bench", entries}));
    return *std::max_element(statuses.begin(), statuses.end());
  }

 private:
  // Every bench's request but its kernel, GPU and progress: read from the options once, on the
  // calling thread.
  pipeline::bench_request common_request(const pipeline::services& services) const {
    pipeline::bench_request request;
    request.target = m_target.to_target(*m_sub);
    request.job = m_profile_mode ? pipeline::profile_settings(m_job, m_profile_calls) : m_job;
    request.atol = m_atol;
    request.rtol = m_rtol;
    request.sanitize = m_sanitize;
    request.reference_timing_folder = m_fresh_reference ? std::nullopt : services.reference_timing_folder;
    return request;
  }

  void write_documents(const json& document) const {
    if (!m_json_out.empty()) write_json_file(m_json_out, document);
    if (m_output.json) std::printf("%s\n", json_text(document).c_str());
  }

  // What one kernel's bench printed and its exit status; the JSON documents are written after all.
  int report(const std::string& kernel, int gpu, const pipeline::bench_outcome& outcome) const {
    const pipeline::prepared_bench& prepared = outcome.prepared;
    if (prepared.failed_build) return report_compile_failure(prepared.failed_build->file, prepared.failed_build->result);
    if (outcome.sanitizer && m_output.prints_summary()) {
      std::fputs(pipeline::sanitizer_text(*outcome.sanitizer).c_str(), stdout);
    }
    const pipeline::bench_result& result = outcome.result;
    if (m_output.json || m_profile_mode) {
      // The document is the result; in profile mode, the line below.
    } else if (m_output.level == verbosity::quiet) {
      if (result.ok() && result.kernel) printer(m_output.level).result(result_line(result));
    } else {
      const std::string where =
          m_gpus.empty() ? prepared.device.name : fmt::format("{} (GPU {})", prepared.device.name, gpu);
      std::printf("kernel: %s on %s (%s)\n", kernel.c_str(), where.c_str(),
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
      const std::string which = m_target.kernels.size() > 1 ? kernel + ": " : "";
      std::fprintf(stderr, "kopt: %s%s: %s\n", which.c_str(), enum_name(result.status).c_str(),
                   result.reason.c_str());
      // A Python traceback (run_kernel raised, say) says where.
      if (!result.detail.empty()) std::fprintf(stderr, "%s\n", result.detail.c_str());
    }
    return static_cast<int>(outcome.status);
  }

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
  bench_target_options m_target{"kopt bench", "time on", true};
  std::string m_gpus;
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
