// kopt profile KERNEL [--ref REF] [dims] [--out DIR]: the options of pipeline::run_profile (one
// Nsight Compute pass over exactly the solve() calls inside kopt's profiler window, exported to
// the CSV files kopt analyze reads) and the printing of its outcome.
#include <cstdio>

#include <fmt/format.h>

#include "cli/bench_setup.h"
#include "cli/problem_options.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/compile_failure.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/text.h"
#include "pipeline/measuring_child.h"
#include "pipeline/profile_pipeline.h"
#include "profile/ncu_command.h"
#include "profile/profile_record.h"

namespace kopt::cli {
namespace {

class profile_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    m_sub = &sub;
    m_target.add_to(sub);
    sub.add_option("--out", m_out, "output folder (default: <kernel stem>_profile beside the kernel)");
    sub.add_option("--ncu-bin", m_ncu_bin, "ncu to use (default: PATH, CUDA_HOME, /usr/local/cuda)");
    sub.add_option("--set", m_capture.set, "ncu section set")->default_val("full");
    sub.add_option("--section", m_capture.sections, "an ncu section to collect besides the set (repeatable)")
        ->allow_extra_args(false);
    sub.add_option("--metrics", m_capture.metrics, "metrics to collect besides the set and kopt's own (repeatable)")
        ->allow_extra_args(false);
    sub.add_option("--kernel-name-regex", m_capture.kernel_name_regex,
                   "profile only kernels whose name matches (ncu --kernel-name regex:...)")
        ->check(text_check(profile::kernel_name_regex_problem, "a regular expression"));
    m_launch_skip_option = sub.add_option("--launch-skip", m_launch_skip,
                                          "launches to skip, counted inside kopt's profiler window")
                               ->check(at_least(0, "launches"));
    m_launch_count_option = sub.add_option("--launch-count", m_launch_count,
                                           "launches to profile, counted inside kopt's profiler window")
                                ->check(at_least(1, "launches"));
    m_profile_calls_option = sub.add_option("--profile-calls", m_profile_calls,
                                            "solve() calls inside the profiler window (default 1, or enough for "
                                            "--launch-skip + --launch-count)")
                                 ->check(at_least(1, "solve() calls"));
    sub.add_option("--warmup", m_job.sampling.warmup, "solve() calls before the profiler window")->default_val(3)->check(at_least(0, "calls"));
    add_seed_option(sub, m_job.seed);
    // --verbose: also where the wall time went (preparation, ncu's capture, export, reading).
    add_output_flags(sub, m_output, "print profile.json instead of the summary", true);
  }

  int run(const pipeline::services& services) override {
    pipeline::profile_request request;
    request.target = m_target.to_target(*m_sub);
    request.job = m_job;
    request.capture = m_capture;
    if (m_launch_skip_option->count() > 0) request.capture.launch_skip = m_launch_skip;
    if (m_launch_count_option->count() > 0) request.capture.launch_count = m_launch_count;
    if (m_profile_calls_option->count() > 0) request.profile_calls = m_profile_calls;
    request.out = m_out;
    request.ncu_bin = m_ncu_bin;
    request.progress = progress_on_terminal("profile", m_output.prints_summary());
    const auto worker = services.make_worker();
    const pipeline::profile_outcome outcome =
        pipeline::run_profile(request, *worker, [this](const std::string& ncu_command) {
          if (m_output.prints_summary()) std::printf("ncu: %s\n", ncu_command.c_str());
          std::fflush(stdout);
        });
    const pipeline::prepared_bench& prepared = outcome.prepared;
    if (prepared.failed_build) return report_compile_failure(prepared.failed_build->file, prepared.failed_build->result);
    if (outcome.failure) {
      std::fprintf(stderr, "kopt: profile failed: %s\n", outcome.failure->headline.c_str());
      if (!outcome.failure->detail.empty()) std::fprintf(stderr, "%s\n", outcome.failure->detail.c_str());
      if (m_output.json) std::printf("%s\n", json_text(outcome.document).c_str());
      return static_cast<int>(outcome.status);
    }
    if (m_output.json) {
      std::printf("%s\n", json_text(outcome.document).c_str());
      return static_cast<int>(exit_status::ok);
    }
    const profile::profile_record& record = outcome.record;
    const printer print(m_output.level);
    print.line(fmt::format("profiled {} kernel launch(es) in {} {} call(s) on {} in {:.1f} s:", record.kernels.size(),
                           record.profile_calls, pipeline::is_triton(m_job) ? "run_kernel()" : "solve()",
                           prepared.device.name, record.capture_seconds));
    for (const auto& k : record.kernels) print.line("  " + profile::kernel_summary_line(k));
    std::string phases = fmt::format("wall time {:.2f} s:", record.wall_seconds);
    for (const auto& [step, seconds] : record.phases_s) phases += fmt::format(" {} {:.2f}", step, seconds);
    print.detail(phases);
    print.result(fmt::format("files in {}: {}", outcome.out.string(), join(record.files, ", ")));
    return static_cast<int>(exit_status::ok);
  }

 private:
  CLI::App* m_sub = nullptr;
  bench_target_options m_target{"kopt profile", "profile on"};
  harness::bench_job m_job;
  profile::ncu_capture_options m_capture;
  std::string m_out;
  std::string m_ncu_bin;
  int m_launch_skip = 0;
  int m_launch_count = 0;
  int m_profile_calls = 1;
  CLI::Option* m_launch_skip_option = nullptr;
  CLI::Option* m_launch_count_option = nullptr;
  CLI::Option* m_profile_calls_option = nullptr;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_profile_command() { return std::make_unique<profile_command>(); }

}  // namespace kopt::cli
