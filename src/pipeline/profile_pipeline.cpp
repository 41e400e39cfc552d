#include "pipeline/profile_pipeline.h"

#include <chrono>
#include <future>

#include <fmt/format.h>

#include "core/cancellation.h"
#include "core/files.h"
#include "core/install_layout.h"
#include "core/phase_clock.h"
#include "core/subprocess.h"
#include "core/write_sandbox.h"
#include "pipeline/child_jobs.h"
#include "pipeline/measuring_child.h"
#include "profile/ncu_export.h"
#include "profile/raw_csv_kernels.h"
#include "profile/staged_output.h"
#include "profile/text_pages.h"
#include "tools/toolchain.h"

namespace kopt::pipeline {
namespace {
namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// The published files, in the order they are renamed into place: profile.json last, so that
// its presence means the run's other files are there too.
const std::vector<std::string> output_names = {"full.ncu-rep",     "ncu_raw.csv",      "ncu_details.csv",
                                               "ncu_source.csv",   "full_summary.txt", "full_details.txt",
                                               "ncu_command.txt",  "profile.json"};

fs::path default_out_dir(const fs::path& kernel_file) {
  return kernel_file.parent_path() / (kernel_file.stem().string() + "_profile");
}

// What ncu and the profiled process did; `sandbox` is where the latter said it could write.
profile::capture_facts facts_of(const wrapped_child_run& run, bool report_written, int timeout_s, int profile_calls,
                                std::optional<std::string>& sandbox) {
  profile::capture_facts facts;
  facts.ncu_output = run.process.stdout_text + run.process.stderr_text;
  facts.ncu_started = run.process.started;
  facts.ncu_start_error = run.process.start_error;
  facts.ncu_succeeded = run.process.succeeded();
  facts.ncu_timed_out = run.process.timed_out;
  facts.ncu_end = run.process.describe_end();
  facts.timeout_s = timeout_s;
  facts.profile_calls = profile_calls;
  facts.child_wrote_result = run.result.has_value();
  if (run.result) {
    // Under ncu the result carries no seal; what it says goes through its checking reader all the same.
    try {
      const auto report = from_document<harness::child_report>(*run.result);
      facts.child_status = enum_name(report.status);
      facts.child_reason = report.reason;
      sandbox = report.sandbox;
    } catch (const document_error& e) {
      facts.child_status = "failed";
      facts.child_reason = "its result does not read as a kopt child report (" + e.headline() + ")";
    }
  }
  facts.report_written = report_written;
  return facts;
}

// The same capture without kopt profile: ncu over `kopt bench --profile-mode`.
std::string by_hand_command(const fs::path& ncu, const fs::path& out, const profile_request& request,
                            const harness::bench_job& job, const prepared_bench& prepared) {
  const bench_target& target = request.target;
  std::vector<std::string> argv = profile::capture_argv(ncu, request.capture, out / "full");
  argv.insert(argv.end(), {fs::read_symlink("/proc/self/exe").string(), "bench", prepared.kernel_file.string()});
  if (!target.backend.empty()) argv.insert(argv.end(), {"--backend", target.backend});
  if (!target.arch.empty()) argv.insert(argv.end(), {"--arch", target.arch});
  if (!target.nvcc_bin.empty()) argv.insert(argv.end(), {"--nvcc-bin", target.nvcc_bin});
  if (target.ptr_size) argv.insert(argv.end(), {"--ptr-size", std::to_string(*target.ptr_size)});
  argv.insert(argv.end(), {"--gpu", std::to_string(target.gpu)});
  for (const auto& dim : job.dims) argv.insert(argv.end(), {"--dim", dim.name + "=" + dim.value});
  argv.insert(argv.end(),
              {"--seed", std::to_string(job.seed), "--warmup", std::to_string(job.sampling.warmup),
               "--profile-mode", "--profile-calls", std::to_string(job.profile_calls.value_or(1))});
  return profile::shell_command_line(argv);
}

// Environment problems are kopt::error (exit 2); the kernel's failures are an outcome (exit 1).
profile_outcome failed(profile_outcome outcome, const profile::capture_outcome& capture) {
  if (capture.verdict == profile::capture_verdict::environment_error) throw error(capture.headline, capture.detail);
  outcome.document = with_schema(
      "profile", 1,
      json{{"status", capture.verdict == profile::capture_verdict::nothing_captured ? "nothing_captured" : "failed"},
           {"reason", capture.headline},
           {"detail", capture.detail}});
  outcome.failure = capture;
  outcome.status = exit_status::kernel_failed;
  return outcome;
}

// The arguments first, so that a typo is found on any machine; then, before anything needs a
// GPU: without ncu there is nothing to do. Returns ncu.
tools::located_tool check_arguments(const profile_request& request) {
  plan_target(request.target);
  tools::located_tool ncu = tools::require_ncu(request.ncu_bin);
  profile::check_capture_options(request.capture);
  if (request.profile_calls && *request.profile_calls < 1) {
    throw error(fmt::format("--profile-calls {}: give 1 or more solve() calls", *request.profile_calls));
  }
  return ncu;
}

// What the record says of the capture before it runs: ncu, its settings and its command line,
// and the same capture by hand.
void describe_capture(profile::profile_record& record, const tools::located_tool& ncu,
                      const profile_request& request, const harness::bench_job& job, const prepared_bench& prepared,
                      const fs::path& out) {
  record.ncu_path = ncu.path.string();
  record.ncu_version = ncu.version;
  record.capture = request.capture;
  record.profile_calls = job.profile_calls.value_or(1);
  record.warmup = job.sampling.warmup;
  record.ncu_argv = profile::capture_argv(ncu.path, request.capture, out / "full");
  std::vector<std::string> shown = record.ncu_argv;
  const std::vector<std::string> measuring = measuring_child_argv(job, "JOB.json", "RESULT.json");
  shown.insert(shown.end(), measuring.begin(), measuring.end());
  record.ncu_command = profile::shell_command_line(shown);
  record.by_hand_command = by_hand_command(ncu.path, out, request, job, prepared);
}

// The text pages of the report in `folder` (staged, or published).
profile::text_page_files text_pages_in(const fs::path& folder) {
  return {folder / "full.ncu-rep", folder / "full_summary.txt", folder / "full_details.txt"};
}

struct exported_pages {
  profile::export_result csv;
  profile::text_pages_written text;
};

// ncu's report as the pages kopt reads and, unless they come later, the text pages beside them
// (each ncu process spends its time starting and loading the report, so they run at once).
exported_pages export_pages(const tools::located_tool& ncu, const profile::staged_output& files, bool text_later) {
  std::future<profile::text_pages_written> text;
  if (!text_later) {
    text = std::async(std::launch::async, [&ncu, folder = files.staged(""), cancellation = thread_cancellation()] {
      set_thread_cancellation(cancellation);
      return profile::write_text_pages(ncu.path, text_pages_in(folder));
    });
  }
  exported_pages pages;
  pages.csv = profile::export_report(ncu.path, files.staged("full.ncu-rep"),
                                     {files.staged("ncu_raw.csv"), files.staged("ncu_details.csv"),
                                      files.staged("ncu_source.csv")});
  if (text.valid()) pages.text = text.get();
  return pages;
}

// The text pages of the published report, by a kopt process that outlives this call.
void start_text_pages(const tools::located_tool& ncu, const fs::path& out,
                      const std::function<void(const std::string&)>& say) {
  const std::string problem =
      start_in_background({.argv = profile::text_pages_argv(kopt_executable(), ncu.path, text_pages_in(out))});
  if (!problem.empty()) say(fmt::format("the text pages were not started ({}): the CSV pages hold it all", problem));
}

}  // namespace

profile_outcome run_profile(const profile_request& request, measuring_worker& worker,
                            const std::function<void(const std::string&)>& on_capture_start) {
  const auto started = clock_type::now();
  phase_clock phases;
  const auto say = [&](const std::string& step) {
    if (request.progress) request.progress(step);
  };
  say("preparation: ncu, the build, the GPU");
  const tools::located_tool ncu = check_arguments(request);
  const int calls = profile::profile_calls_for(request.capture, request.profile_calls);
  harness::bench_job job = profile_settings(request.job, calls);

  profile_outcome outcome;
  outcome.prepared = prepare_bench(request.target, job, worker);
  const prepared_bench& prepared = outcome.prepared;
  if (prepared.failed_build) {
    outcome.status = exit_status::kernel_failed;
    return outcome;
  }
  if (prepared.failed_problem) {
    profile::capture_outcome refused;
    refused.verdict = profile::capture_verdict::kernel_failed;
    refused.headline = *prepared.failed_problem;
    return failed(std::move(outcome), refused);
  }
  outcome.out = request.out.empty() ? default_out_dir(prepared.kernel_file) : fs::absolute(request.out);
  profile::staged_output files(outcome.out);

  profile::profile_record& record = outcome.record;
  describe_capture(record, ncu, request, job, prepared, outcome.out);
  if (on_capture_start) on_capture_start(record.ncu_command);
  say(fmt::format(
      "the capture: one Nsight Compute pass (--set full) over {} solve() call(s); it can take minutes",
      calls));

  phases.done("preparation");  // the arguments, ncu, planning, the build (or the cache), the GPU
  const auto capture_started = clock_type::now();
  const wrapped_child_run child =
      worker.run(profile::capture_argv(ncu.path, request.capture, files.staged("full")), profile_job(job),
                 prepared.device, request.target.timeout_s);
  record.capture_seconds = seconds_since(capture_started);
  phases.done("capture");  // ncu's start, the measuring process, the replay passes, the report
  std::error_code ec;
  const profile::capture_outcome capture =
      profile::judge_capture(facts_of(child, fs::exists(files.staged("full.ncu-rep"), ec),
                                      request.target.timeout_s, calls, record.sandbox),
                             request.capture);
  sandbox_warning::for_this_process().note(record.sandbox);
  if (capture.verdict != profile::capture_verdict::ok) return failed(std::move(outcome), capture);

  say("exporting the report's pages");
  const exported_pages exported = export_pages(ncu, files, request.text_pages_later);
  record.source_problem = exported.csv.source_problem;
  phases.done("export");  // ncu -i, one process per page, at once (and the caller's work meanwhile)
  record.kernels = profile::read_profiled_kernels(read_text_file(files.staged("ncu_raw.csv"), "ncu raw CSV"));
  phases.done("reading");
  if (record.kernels.empty()) {
    return failed(std::move(outcome),
                  profile::nothing_captured(request.capture, calls, "the report holds no kernel launch"));
  }

  for (const std::string& name : output_names) {
    const bool written = name == "ncu_source.csv"     ? exported.csv.source_written
                         : name == "full_summary.txt" ? exported.text.summary
                         : name == "full_details.txt" ? exported.text.details
                                                      : true;
    if (written) record.files.push_back(name);
  }
  record.wall_seconds = seconds_since(started);
  record.phases_s = phases.phases();
  outcome.document = profile::profile_document(record);
  outcome.document.update(to_document(provenance_of(prepared, job)));
  write_file_atomic(files.staged("ncu_command.txt"),
                    fmt::format("# ncu as kopt profile ran it (JOB.json / RESULT.json: kopt's temporary job files)\n"
                                "{}\n# the same capture by hand, through kopt bench's profile mode\n{}\n",
                                record.ncu_command, record.by_hand_command));
  write_json_file(files.staged("profile.json"), outcome.document);
  files.publish(output_names);
  if (request.text_pages_later) start_text_pages(ncu, outcome.out, say);
  return outcome;
}

}  // namespace kopt::pipeline
