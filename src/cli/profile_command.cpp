// kopt profile KERNEL [--ref REF] [dims] [--out DIR]: one Nsight Compute pass (--set full plus
// the metrics the analysis needs) over exactly the solve() calls inside kopt's profiler window,
// exported to the CSV files kopt analyze reads. The measuring child runs in profile mode, so no
// reference, validation or cache flush kernel is ever in the window.
#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "cli/bench_setup.h"
#include "cli/commands.h"
#include "compile/toolchain.h"
#include "core/error.h"
#include "core/files.h"
#include "core/text.h"
#include "profile/ncu_command.h"
#include "profile/ncu_export.h"
#include "profile/ncu_outcome.h"
#include "profile/profile_record.h"
#include "profile/raw_csv_kernels.h"
#include "profile/staged_output.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// The published files, in the order they are renamed into place: profile.json last, so that
// its presence means the run's other files are there too.
const std::vector<std::string> output_names = {"full.ncu-rep",   "ncu_raw.csv",     "ncu_details.csv",
                                               "ncu_source.csv", "ncu_command.txt", "profile.json"};

class profile_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    m_sub = &sub;
    sub.allow_extras();
    m_target.command_name = "kopt profile";
    m_target.gpu_purpose = "profile on";
    m_target.add_to(sub);
    sub.add_option("--out", m_out, "output folder (default: <kernel stem>_profile beside the kernel)");
    sub.add_option("--ncu-bin", m_ncu_bin, "ncu to use (default: PATH, CUDA_HOME, /usr/local/cuda)");
    sub.add_option("--set", m_capture.set, "ncu section set")->default_val("full");
    sub.add_option("--section", m_capture.sections, "an ncu section to collect besides the set (repeatable)")
        ->allow_extra_args(false);
    sub.add_option("--metrics", m_capture.metrics, "metrics to collect besides the set and kopt's own (repeatable)")
        ->allow_extra_args(false);
    sub.add_option("--kernel-name-regex", m_capture.kernel_name_regex,
                   "profile only kernels whose name matches (ncu --kernel-name regex:...)");
    m_launch_skip_option = sub.add_option("--launch-skip", m_launch_skip,
                                          "launches to skip, counted inside kopt's profiler window");
    m_launch_count_option = sub.add_option("--launch-count", m_launch_count,
                                           "launches to profile, counted inside kopt's profiler window");
    m_profile_calls_option = sub.add_option("--profile-calls", m_profile_calls,
                                            "solve() calls inside the profiler window (default 1, or enough for "
                                            "--launch-skip + --launch-count)");
    sub.add_option("--warmup", m_job.warmup, "solve() calls before the profiler window")->default_val(3);
    sub.add_option("--seed", m_job.seed, "seed of the random inputs")->default_val(0);
    sub.add_flag("--json", m_json, "print profile.json instead of the summary");
  }

  int run() override {
    const auto started = clock_type::now();
    // Before anything needs a GPU: without ncu there is nothing to do.
    const compile::located_tool ncu = compile::require_ncu(m_ncu_bin);
    if (m_launch_skip_option->count() > 0) m_capture.launch_skip = m_launch_skip;
    if (m_launch_count_option->count() > 0) m_capture.launch_count = m_launch_count;
    profile::check_capture_options(m_capture);
    std::optional<int> requested_calls;
    if (m_profile_calls_option->count() > 0) requested_calls = m_profile_calls;
    if (requested_calls && *requested_calls < 1) {
      throw error(fmt::format("--profile-calls {}: give 1 or more solve() calls", *requested_calls));
    }
    m_job.profile_mode = true;
    m_job.profile_calls = profile::profile_calls_for(m_capture, requested_calls);

    const prepared_bench prepared = prepare_bench(m_target, *m_sub, m_job);
    if (prepared.build_failed) return *prepared.build_failed;
    const fs::path out = m_out.empty() ? default_out_dir(prepared.kernel_file) : fs::absolute(m_out);
    profile::staged_output files(out);

    profile::profile_record record;
    record.ncu_path = ncu.path.string();
    record.ncu_version = ncu.version;
    record.capture = m_capture;
    record.profile_calls = m_job.profile_calls;
    record.warmup = m_job.warmup;
    record.ncu_argv = profile::capture_argv(ncu.path, m_capture, out / "full");
    std::vector<std::string> shown = record.ncu_argv;
    const std::vector<std::string> measuring = measuring_child_argv(m_job, "JOB.json", "RESULT.json");
    shown.insert(shown.end(), measuring.begin(), measuring.end());
    record.ncu_command = profile::shell_command_line(shown);
    record.by_hand_command = by_hand_command(ncu.path, out, prepared);
    if (!m_json) std::printf("ncu: %s\n", record.ncu_command.c_str());
    std::fflush(stdout);

    const auto capture_started = clock_type::now();
    const wrapped_child_run child = run_wrapped_measuring_child(
        profile::capture_argv(ncu.path, m_capture, files.staged("full")), m_job, prepared.device, m_target.timeout);
    record.capture_seconds = seconds_since(capture_started);
    std::error_code ec;
    const profile::capture_outcome outcome =
        profile::judge_capture(facts_of(child, fs::exists(files.staged("full.ncu-rep"), ec)), m_capture);
    if (outcome.verdict != profile::capture_verdict::ok) return fail(outcome);

    const profile::export_result exported = profile::export_report(
        ncu.path, files.staged("full.ncu-rep"),
        {files.staged("ncu_raw.csv"), files.staged("ncu_details.csv"), files.staged("ncu_source.csv")});
    record.source_problem = exported.source_problem;
    record.kernels = profile::read_profiled_kernels(read_text_file(files.staged("ncu_raw.csv"), "ncu raw CSV"));
    if (record.kernels.empty()) {
      return fail(profile::nothing_captured(m_capture, m_job.profile_calls, "the report holds no kernel launch"));
    }

    for (const std::string& name : output_names) {
      if (name != "ncu_source.csv" || exported.source_written) record.files.push_back(name);
    }
    record.wall_seconds = seconds_since(started);
    json document = profile::profile_document(record);
    add_provenance(document, prepared, m_job);
    write_file_atomic(files.staged("ncu_command.txt"),
                      fmt::format("# ncu as kopt profile ran it (JOB.json / RESULT.json: kopt's temporary job files)\n"
                                  "{}\n# the same capture by hand, through kopt bench's profile mode\n{}\n",
                                  record.ncu_command, record.by_hand_command));
    write_json_file(files.staged("profile.json"), document);
    files.publish(output_names);

    if (m_json) {
      std::printf("%s\n", json_text(document).c_str());
      return static_cast<int>(exit_status::ok);
    }
    std::printf("profiled %zu kernel launch(es) in %d %s call(s) on %s in %.1f s:\n", record.kernels.size(),
                m_job.profile_calls, is_triton(m_job) ? "run_kernel()" : "solve()", prepared.device.name.c_str(),
                record.capture_seconds);
    for (const auto& k : record.kernels) std::printf("  %s\n", profile::kernel_summary_line(k).c_str());
    std::printf("files in %s: %s\n", out.string().c_str(), join(record.files, ", ").c_str());
    return static_cast<int>(exit_status::ok);
  }

 private:
  static fs::path default_out_dir(const fs::path& kernel_file) {
    return kernel_file.parent_path() / (kernel_file.stem().string() + "_profile");
  }

  static std::string kopt_executable() { return fs::read_symlink("/proc/self/exe").string(); }

  profile::capture_facts facts_of(const wrapped_child_run& run, bool report_written) const {
    profile::capture_facts facts;
    facts.ncu_output = run.process.stdout_text + run.process.stderr_text;
    facts.ncu_started = run.process.started;
    facts.ncu_start_error = run.process.start_error;
    facts.ncu_succeeded = run.process.succeeded();
    facts.ncu_timed_out = run.process.timed_out;
    facts.ncu_end = run.process.describe_end();
    facts.timeout_s = m_target.timeout;
    facts.profile_calls = m_job.profile_calls;
    facts.child_wrote_result = run.result.has_value();
    if (run.result) {
      facts.child_status = run.result->value("status", "");
      facts.child_reason = run.result->value("reason", "");
    }
    facts.report_written = report_written;
    return facts;
  }

  // The same capture without kopt profile: ncu over `kopt bench --profile-mode`.
  std::string by_hand_command(const fs::path& ncu, const fs::path& out, const prepared_bench& prepared) const {
    std::vector<std::string> argv = profile::capture_argv(ncu, m_capture, out / "full");
    argv.insert(argv.end(), {kopt_executable(), "bench", prepared.kernel_file.string()});
    if (!m_target.backend.empty()) argv.insert(argv.end(), {"--backend", m_target.backend});
    if (!m_target.arch.empty()) argv.insert(argv.end(), {"--arch", m_target.arch});
    if (!m_target.nvcc_bin.empty()) argv.insert(argv.end(), {"--nvcc-bin", m_target.nvcc_bin});
    if (m_target.ptr_size > 0) argv.insert(argv.end(), {"--ptr-size", std::to_string(m_target.ptr_size)});
    argv.insert(argv.end(), {"--gpu", std::to_string(m_target.gpu)});
    for (const auto& dim : m_job.dims) argv.insert(argv.end(), {"--dim", dim.name + "=" + dim.value});
    argv.insert(argv.end(), {"--seed", std::to_string(m_job.seed), "--warmup", std::to_string(m_job.warmup),
                             "--profile-mode", "--profile-calls", std::to_string(m_job.profile_calls)});
    return profile::shell_command_line(argv);
  }

  // Environment problems map to exit 2 through kopt::error; the kernel's failures are exit 1.
  int fail(const profile::capture_outcome& outcome) const {
    if (outcome.verdict == profile::capture_verdict::environment_error) throw error(outcome.headline, outcome.detail);
    std::fprintf(stderr, "kopt: profile failed: %s\n", outcome.headline.c_str());
    if (!outcome.detail.empty()) std::fprintf(stderr, "%s\n", outcome.detail.c_str());
    if (m_json) {
      const json document = with_schema(
          "profile", 1,
          json{{"status", outcome.verdict == profile::capture_verdict::nothing_captured ? "nothing_captured" : "failed"},
               {"reason", outcome.headline},
               {"detail", outcome.detail}});
      std::printf("%s\n", json_text(document).c_str());
    }
    return static_cast<int>(exit_status::kernel_failed);
  }

  CLI::App* m_sub = nullptr;
  bench_target_options m_target;
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
  bool m_json = false;
};

}  // namespace

std::unique_ptr<command> make_profile_command() { return std::make_unique<profile_command>(); }

}  // namespace kopt::cli
