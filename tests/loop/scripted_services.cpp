#include "scripted_services.h"

#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "core/files.h"
#include "core/hash.h"
#include "kernel/scalar_binding.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "measure/statistics.h"
#include "pipeline/bench_result.h"
#include "pipeline/child_jobs.h"
#include "support/kopt_process.h"
#include "support/timings.h"

namespace kopt::loop::testing {
namespace {

namespace fs = std::filesystem;

double speed_of(const std::string& source) {
  const auto at = source.find("// speed: ");
  return at == std::string::npos ? 1.0 : std::stod(source.substr(at + 10));
}

// 40 samples around `median_ms`, ±0.3 %, the same for the same median.
std::vector<double> samples_around(double median_ms) {
  std::vector<double> samples;
  for (int i = 0; i < 40; ++i) samples.push_back(median_ms * (1 + 0.003 * std::sin(1.7 * i)));
  return samples;
}

// "// fails at --cols=1000" in the source, and cols=1000 among the dimensions.
bool fails_at(const std::string& source, const std::vector<kernel::dimension_arg>& dims) {
  for (const auto& d : dims) {
    if (source.find("// fails at " + kernel::spell_dimension(d) + "\n") != std::string::npos) return true;
  }
  return false;
}

// Versions taking turns at their scripted speeds: each block's samples around the version's
// time, with the same small jitter, and a drift shared by both blocks of a round.
class scripted_turns final : public pipeline::block_timing {
 public:
  scripted_turns(double baseline_ms, std::vector<double> speeds) : m_baseline_ms(baseline_ms), m_speeds(std::move(speeds)) {}

  pipeline::timing_block time_block(std::size_t version, int calls) override {
    const double drift = 1 + 0.02 * std::sin(0.9 * static_cast<double>(m_blocks++ / 2));
    std::vector<double> samples;
    for (int i = 0; i < calls; ++i) {
      samples.push_back(m_baseline_ms * m_speeds.at(version) * drift * (1 + 0.003 * std::sin(1.7 * i + 0.4 * m_blocks)));
    }
    pipeline::timing_block block;
    block.timing = kopt::testing::timing_of_samples(samples);
    return block;
  }

  std::vector<std::string> close() override { return std::vector<std::string>(m_speeds.size()); }

 private:
  double m_baseline_ms;
  std::vector<double> m_speeds;
  int m_blocks = 0;
};

}  // namespace

std::string softmax_version(double speed, const std::string& extra) {
  const std::string base = read_text_file(kopt::testing::source_dir() / "examples" / "softmax_naive.cu");
  return fmt::format("// speed: {}\n{}\n{}", speed, extra, base);
}

void hand_over_version(const fs::path& kernel, const fs::path& run_dir, const std::string& source,
                       const std::vector<std::string>& tags) {
  write_file_atomic(kernel, source);
  if (run_dir.empty()) return;
  const run_manifest m = read_run_manifest(run_dir);
  const fs::path proposal = iteration_dir(run_dir, m.iterations.back().iteration) / "optimization_proposal.md";
  std::string text = read_text_file(proposal);
  for (const auto& t : tags) text += "- " + t + "\n";
  write_file_atomic(proposal, text);
}

loop_services scripted_gpu::services() {
  loop_services s;
  s.preflight = [](const env::preflight_options& options) {
    env::preflight_report report;
    report.generated_at = "2026-12-01T00:00:00Z";
    report.options = options;
    report.items.push_back({"gpu", env::check_state::ok, true, "NVIDIA H200 (scripted)", ""});
    return report;
  };
  s.bench = [this](const pipeline::bench_request& request) {
    ++bench_calls;
    bench_defines.push_back(request.target.defines);
    bench_kernels.push_back(request.target.kernel);
    if (!pipeline::times_the_kernel(request.job)) ++validation_only_calls;
    if (!request.reference_timing_folder) ++fresh_reference_calls;
    pipeline::bench_outcome outcome;
    outcome.prepared.plan = pipeline::plan_target(request.target);
    outcome.prepared.kernel_build.arch.name = "sm_90a";
    outcome.prepared.kernel_build.status = compile::compile_status::built;
    const std::string source = read_text_file(request.target.kernel);
    pipeline::bench_result& r = outcome.result;
    r.backend = "cuda";
    if (!request.sanitize.empty()) {
      ++sanitized_calls;
      sanitized_tools.push_back(request.sanitize);
      // "// sanitizer finds: racecheck": the tool finds a hazard the judge's values did not show.
      const bool finds = source.find("// sanitizer finds: " + request.sanitize + "\n") != std::string::npos;
      outcome.sanitizer = pipeline::sanitizer_record{
          request.sanitize, {"compute-sanitizer", "--tool", request.sanitize}, "2025.3.1", finds ? 1 : 0,
          finds ? std::vector<std::string>{"Error: Race reported between Write access and Read access"}
                : std::vector<std::string>{},
          finds ? pipeline::sanitizer_status::errors : pipeline::sanitizer_status::clean, std::nullopt};
      if (finds) {
        r.status = harness::run_status::failed;
        r.reason = fmt::format("compute-sanitizer {} found 1 error(s): Error: Race reported", request.sanitize);
        outcome.status = exit_status::kernel_failed;
        r.sanitizer = outcome.sanitizer;
        outcome.document = to_document(r);
        return outcome;
      }
    }
    if (source.find("// fails validation") != std::string::npos || fails_at(source, request.target.dims)) {
      r.status = harness::run_status::failed;
      r.reason = "validation failed (seed 0): wrong values: 12 of 4194304 elements";
      outcome.status = exit_status::kernel_failed;
    } else if (!pipeline::times_the_kernel(request.job)) {
      r.reference.reset();  // judged, not timed
    } else {
      const double median = baseline_ms * speed_of(source);
      const auto samples = samples_around(median);
      r.kernel = kopt::testing::timing_of_samples(samples);
      r.kernel->median_ms = median;
      r.kernel->estimate_ms = median;
      r.kernel->median_ci95_ms = {median * 0.998, median * 1.002};
      r.reference = kopt::testing::timing_of_samples({reference_ms});
      r.speedup_vs_reference = reference_ms / median;
      r.speedup_vs_reference_ci95 = std::array<double, 2>{reference_ms / (median * 1.002), reference_ms / (median * 0.998)};
      r.physical_floor = harness::physical_floor_record{problem_bytes, peak_dram_bytes_per_s, copy_bytes_per_s};
      // The "library" bench measured: the source itself, so that each version's differs.
      const fs::path library = fs::path(request.target.kernel).parent_path() /
                               fmt::format(".scripted_{}.so", sha256_hex(source).substr(0, 16));
      write_file_atomic(library, source);
      outcome.prepared.kernel_build.library = library;
    }
    r.correctness.checked = true;
    r.correctness.passed = r.ok();
    r.sanitizer = outcome.sanitizer;
    // "// prints: TEXT": the kernel's process printed TEXT (its printf), as the harness keeps it.
    if (const std::size_t at = source.find("// prints: "); at != std::string::npos) {
      process_result printed;
      printed.stdout_text = source.substr(at + 11, source.find('\n', at) - at - 11) + "\n";
      r.kernel_output = pipeline::printed_output_of(printed);
    }
    outcome.document = to_document(r);
    return outcome;
  };
  s.profile = [this](const pipeline::profile_request& request) {
    ++profile_calls;
    const std::string source = read_text_file(request.target.kernel);
    if (die_in_profile ||
        (!die_in_profile_of.empty() && source.find(die_in_profile_of) != std::string::npos)) {
      throw std::runtime_error("killed while profiling");
    }
    std::string fixture = profile_fixture;
    for (const auto& [marker, name] : fixture_by_marker) {
      if (source.find(marker) != std::string::npos) fixture = name;
    }
    const fs::path data = fs::path(KOPT_TEST_DATA_DIR) / "ncu" / "h200";
    for (const char* page : {"raw", "details", "source"}) {
      fs::copy_file(data / fmt::format("{}_{}.csv", fixture, page), request.out / fmt::format("ncu_{}.csv", page),
                    fs::copy_options::overwrite_existing);
    }
    write_file_atomic(request.out / "full.ncu-rep", "scripted");
    pipeline::profile_outcome outcome;
    outcome.prepared.plan = pipeline::plan_target(request.target);
    outcome.out = request.out;
    return outcome;
  };
  s.analyze = pipeline::run_analysis;
  s.compare = [this](const pipeline::comparison_request& request) {
    ++compare_calls;
    scripted_turns turns(baseline_ms, {speed_of(read_text_file(request.candidate.source)),
                                       speed_of(read_text_file(request.incumbent.source))});
    return pipeline::compare_in_turns(turns, request.expected_ms, request.settings);
  };
  return s;
}

}  // namespace kopt::loop::testing
