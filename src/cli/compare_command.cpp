// kopt compare BASELINE CANDIDATE [dims]: is the candidate faster? Both versions are built as
// bench builds them, held open in their own measuring processes and timed in turns until the
// interval of the median ratio settles it (pipeline/comparison_pipeline.h). Only timing:
// `kopt bench` judges correctness.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/problem_options.h"
#include "cli/compile_failure.h"
#include "cli/device_option.h"
#include "cli/dimension_options.h"
#include "cli/option_checks.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_io.h"
#include "pipeline/comparison_pipeline.h"

namespace kopt::cli {
namespace {

class compare_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    m_sub = &sub;
    sub.add_option("baseline", m_baseline,
                   "the version to compare against (a CUDA or CUTLASS .cu file, or a Triton .py)")
        ->required();
    sub.add_option("candidate", m_candidate, "the new version, with the same solve() signature")->required();
    sub.add_option("--backend", m_backend, "cuda, cutlass, triton, or auto (the default: from the file)");
    sub.add_option("--ref", m_ref,
                   "a Triton kernel's reference module, when its setup() makes the problem (it is not run)");
    m_dimensions.add_to(sub);
    sub.add_option("--arch", m_arch, "target architecture (default: the GPU's)");
    sub.add_option("-D", m_defines, "preprocessor definition NAME[=VALUE] for both builds (repeatable)");
    add_gpu_option(sub, m_gpu, "CUDA device ordinal");
    sub.add_option("--nvcc-bin", m_nvcc_bin, "nvcc to use");
    add_seed_option(sub, m_job.seed);
    sub.add_flag("--hot", m_job.sampling.hot, "no L2 flush before each sample (default: flush by reading)");
    sub.add_option("--max-seconds", m_settings.max_seconds,
                   "time for the rounds, at most [s]; then inconclusive")
        ->default_val(20.0)
        ->check(seconds_limit<double>());
    sub.add_option("--block-ms", m_settings.block_ms, "wall time a block of calls aims at [ms]")
        ->default_val(25.0)
        ->check(above_zero(longest_seconds * 1000, "milliseconds"));
    sub.add_option("--json-out", m_json_out, "write the comparison (every sample, every round) to this file");
    sub.add_flag("--json", m_json, "print the comparison as JSON");
    sub.footer(
        "Only timing: neither version is validated (kopt bench does that). Dimensions: --NAME=VALUE, e.g. "
        "--N=1048576. Exit 0 with an outcome (positive: the candidate is faster; negative, neutral, "
        "inconclusive), 1 when a version fails to build or while timed.");
  }

  int run(const pipeline::services& services) override {
    const auto worker = services.make_worker();
    pipeline::file_comparison_request request;
    request.target.backend = m_backend;
    request.target.ref = m_ref;
    m_dimensions.fill(request.target, *m_sub);
    request.target.arch = m_arch;
    request.target.defines = m_defines;
    request.target.gpu = m_gpu;
    request.target.nvcc_bin = m_nvcc_bin;
    request.target.command_name = "kopt compare";
    request.baseline = m_baseline;
    request.candidate = m_candidate;
    request.job = m_job;
    request.settings = m_settings;
    request.progress = progress_on_terminal("compare", !m_json);
    const pipeline::file_comparison compared = pipeline::compare_files(request, *worker);
    if (compared.failed_build) {
      return report_compile_failure(compared.failed_build->file, compared.failed_build->result);
    }
    const pipeline::turns_outcome& outcome = compared.turns;
    const json document = pipeline::to_json(outcome);
    if (!m_json_out.empty()) write_json_file(m_json_out, document);
    if (m_json) {
      std::printf("%s\n", json_text(document).c_str());
    } else {
      print(outcome, compared.device.name);
    }
    if (!outcome.failure.empty()) {
      std::fprintf(stderr, "kopt: failed: %s\n", outcome.failure.c_str());
      return static_cast<int>(exit_status::kernel_failed);
    }
    return static_cast<int>(exit_status::ok);
  }

 private:
  void print(const pipeline::turns_outcome& o, const std::string& gpu) const {
    std::printf("%s against %s on %s, in turns: %zu rounds of %d calls each, %.1f s\n", m_candidate.c_str(),
                m_baseline.c_str(), gpu.c_str(), o.rounds, o.block_calls, o.seconds);
    if (!o.failure.empty()) return;
    const measure::outcome_evidence& e = o.evidence;
    std::printf("outcome: %s (%s)\n",
                paint_status(std::string(measure::to_string(e.verdict)), colour_allowed(stdout)).c_str(),
                o.stop.c_str());
    std::printf("candidate/baseline: %.4fx the time (95 %% interval [%.4f, %.4f], margin ±%.1f %%)\n",
                e.ratio, e.ratio_ci95.low, e.ratio_ci95.high, 100 * e.margin);
    std::printf("medians: candidate %.6g ms, baseline %.6g ms\n", e.candidate_median_ms,
                e.incumbent_median_ms);
    for (const std::string& warning : o.warnings) std::printf("warning: %s\n", warning.c_str());
  }

  CLI::App* m_sub = nullptr;
  std::string m_baseline;
  std::string m_candidate;
  std::string m_backend;
  std::string m_ref;
  dimension_options m_dimensions;
  std::string m_arch;
  std::vector<std::string> m_defines;
  int m_gpu = 0;
  std::string m_nvcc_bin;
  harness::bench_job m_job;
  pipeline::turns_settings m_settings;
  std::string m_json_out;
  bool m_json = false;
};

}  // namespace

std::unique_ptr<command> make_compare_command() {
  return std::make_unique<compare_command>();
}

}  // namespace kopt::cli
