#include "loop/shape_checks.h"

#include <fmt/format.h>

#include "core/files.h"
#include "core/text.h"
#include "loop/bench_texts.h"
#include "pipeline/child_jobs.h"
#include "pipeline/problem_fingerprint.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

std::string first_line(const std::string& text) {
  const auto lines = split_lines(text);
  return lines.empty() ? std::string() : shorten(lines.front(), 300);
}

// Why the version fails at this shape, "" when it passed.
std::string failure_of(const pipeline::bench_outcome& bench) {
  if (bench.prepared.failed_build) {
    return "build failed: " + first_line(bench.prepared.failed_build->result.failure_reason);
  }
  if (bench.result.ok()) return "";
  return first_line(bench.result.reason.empty() ? enum_name(bench.result.status) : bench.result.reason);
}

}  // namespace

shape_checks_outcome unchecked_shapes(const loop_settings& settings) {
  shape_checks_outcome out;
  for (const kernel::check_shape& shape : settings.check_shapes) {
    out.checks.push_back({shape.label, "not run", ""});
    out.problem_sha256.emplace_back();
  }
  return out;
}

shape_checks_outcome run_shape_checks(const loop_settings& settings, const loop_services& services,
                                      const fs::path& iteration_dir, const step_progress& progress) {
  shape_checks_outcome out = unchecked_shapes(settings);
  for (std::size_t i = 0; i < settings.check_shapes.size(); ++i) {
    const kernel::check_shape& shape = settings.check_shapes[i];
    if (progress) progress(fmt::format("check: the judge at {} (validation only)", shape.label));
    pipeline::bench_request request{
        settings.target, pipeline::validation_only(settings.job), settings.atol, settings.rtol, "", {}};
    request.target.dims = shape.dims;
    const pipeline::bench_outcome bench = services.bench(request);
    const fs::path dir = iteration_dir / "check_shapes" / fmt::format("shape_{}", i + 1);
    fs::create_directories(dir);
    write_bench_texts(dir, bench);
    if (!bench.document.is_null()) write_json_file(dir / "benchmark_result.json", bench.document);
    if (!bench.prepared.failed_build) out.problem_sha256[i] = pipeline::problem_sha256(bench.prepared.plan);
    const std::string failure = failure_of(bench);
    if (failure.empty()) {
      out.checks[i].status = "passed";
      continue;
    }
    out.checks[i].status = "failed";
    out.checks[i].reason = failure;
    out.failure = fmt::format("fails at {}: {}", shape.label, failure);
    break;
  }
  return out;
}

}  // namespace kopt::loop
