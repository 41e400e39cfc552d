#include "loop/version_evaluation.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/files.h"
#include "core/phase_clock.h"
#include "core/hash.h"
#include "core/text.h"
#include "loop/bench_texts.h"
#include "loop/run_directory.h"
#include "pipeline/problem_fingerprint.h"
#include "loop/shape_checks.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

void say(const step_progress& progress, const std::string& what) {
  if (progress) progress(what);
}

// "softmax.cu(12): error: identifier "x" is undefined (nvcc exit code 2)": the first error the
// compiler gave, which is what the agent must fix.
std::string build_failure_line(const compile::compile_result& build) {
  for (const std::string& line : split_lines(build.compiler_output)) {
    if (line.find("error") != std::string::npos) return fmt::format("{} ({})", shorten(line, 300), build.failure_reason);
  }
  return build.failure_reason;
}

// The kernel timing samples a bench result holds (none for a failed run), and its timer step.
std::vector<double> kernel_samples(const pipeline::bench_result& result) {
  return result.kernel ? result.kernel->samples_ms : std::vector<double>{};
}

double timer_tick_ms(const pipeline::bench_result& result) {
  return result.kernel ? static_cast<double>(result.kernel->timer_tick_ns) / 1e6 : 0;
}

}  // namespace

measure::outcome_evidence compare_bench_results(const pipeline::bench_result& candidate,
                                                const pipeline::bench_result& incumbent) {
  return measure::classify_against(kernel_samples(candidate), kernel_samples(incumbent),
                                   std::max(timer_tick_ms(candidate), timer_tick_ms(incumbent)));
}

namespace {

version_evaluation measure_steps(const loop_settings& settings, const loop_services& services,
                                 const fs::path& dir, const step_progress& progress, phase_clock& clock) {
  version_evaluation e;
  shape_checks_outcome unchecked = unchecked_shapes(settings);
  e.checks = std::move(unchecked.checks);
  e.check_problem_sha256 = std::move(unchecked.problem_sha256);
  say(progress, "bench: validating against the reference and timing");
  pipeline::bench_request bench_request{settings.target, settings.job, settings.atol, settings.rtol, "", {}};
  if (progress) bench_request.progress = [&progress](const std::string& step) { progress("bench: " + step); };
  const pipeline::bench_outcome bench = services.bench(bench_request);
  clock.done("bench");
  write_bench_texts(dir, bench);
  if (bench.prepared.failed_build) {
    e.failure = "build failed: " + build_failure_line(bench.prepared.failed_build->result);
    return e;
  }
  e.arch = bench.prepared.kernel_build.arch.name;
  e.problem_sha256 = pipeline::problem_sha256(bench.prepared.plan);
  write_json_file(dir / "benchmark_result.json", bench.document);
  const pipeline::bench_result& result = bench.result;
  if (!result.ok()) {
    e.failure = fmt::format("bench {}: {}", result.status, result.reason);
    return e;
  }
  const fs::path library = bench.prepared.kernel_build.library;
  if (!library.empty() && fs::is_regular_file(library)) {
    // What was measured, for comparing with later versions in turns: the compile cache may
    // lose it, and the kernel file's local headers may change.
    const fs::path kept = dir / kept_library_name;
    fs::remove(kept);
    fs::copy_file(library, kept);
    e.library_sha256 = sha256_hex(read_text_file(kept, "kept kernel library"));
  }
  if (result.kernel) {
    e.median_ms = result.kernel->median_ms;
    e.median_ci95_ms = to_document(result.kernel->median_ci95_ms);
  }
  if (result.reference) e.reference_median_ms = result.reference->median_ms;
  e.speedup_vs_reference = result.speedup_vs_reference;

  // Before any profile: a version wrong at another shape is rejected without costing an ncu pass.
  shape_checks_outcome checked = run_shape_checks(settings, services, dir, progress);
  if (!settings.check_shapes.empty()) clock.done("check_dims");
  e.checks = std::move(checked.checks);
  e.check_problem_sha256 = std::move(checked.problem_sha256);
  if (!checked.failure.empty()) e.failure = checked.failure;
  return e;
}

void profile_steps(const loop_settings& settings, const loop_services& services, const std::string& backend,
                   const fs::path& dir, const step_progress& progress, version_evaluation& e,
                   phase_clock& clock) {
  say(progress, "profile: one Nsight Compute pass (--set full)");
  const pipeline::profile_request profile_request{.target = settings.target,
                                                  .job = settings.job,
                                                  .capture = settings.capture,
                                                  .out = dir,
                                                  .ncu_bin = settings.ncu_bin,
                                                  .text_pages_later = true};
  const pipeline::profile_outcome profiled = services.profile(profile_request);
  clock.done("profile");
  if (profiled.failure) {
    e.failure = "profile failed: " + profiled.failure->headline;
    return;
  }
  if (profiled.prepared.failed_build) {
    e.failure = "profile failed: the kernel did not build for profiling";
    return;
  }

  say(progress, "analyze: diagnosing the profile");
  pipeline::analysis_request analysis_request;
  analysis_request.report = dir / "ncu_raw.csv";
  analysis_request.backend = backend;
  analysis_request.out = dir;
  analysis_request.ncu_bin = settings.ncu_bin;
  const pipeline::analysis_outcome analysis = services.analyze(analysis_request);
  e.diagnosis = digest_analysis(analysis.analysis, (dir / analysis_file_name).string());
  clock.done("analyze");
}

}  // namespace

version_evaluation measure_version(const loop_settings& settings, const loop_services& services,
                                   const fs::path& dir, const step_progress& progress) {
  phase_clock clock;
  version_evaluation e = measure_steps(settings, services, dir, progress, clock);
  e.step_seconds = to_document(clock.phases());
  return e;
}

void profile_version(const loop_settings& settings, const loop_services& services, const std::string& backend,
                     const fs::path& dir, const step_progress& progress, version_evaluation& e) {
  phase_clock clock;
  profile_steps(settings, services, backend, dir, progress, e, clock);
  e.step_seconds.update(to_document(clock.phases()));
}

}  // namespace kopt::loop
