#include "loop/bench_texts.h"

#include <string>

#include <fmt/format.h>

#include "core/files.h"

namespace kopt::loop {

void write_bench_texts(const std::filesystem::path& dir, const pipeline::bench_outcome& bench) {
  std::string out;
  std::string err;
  if (bench.prepared.failed_build) {
    err = fmt::format("compile failed: {}\n{}\n", bench.prepared.failed_build->result.failure_reason,
                      bench.prepared.failed_build->result.compiler_output);
  } else {
    const pipeline::bench_result& r = bench.result;
    out = fmt::format("status: {}\n", r.status);
    if (r.kernel.is_object()) {
      out += fmt::format("kernel median: {} ms ({})\n", r.kernel.value("median_ms", 0.0), r.protocol);
    }
    if (r.reference.is_object()) {
      out += fmt::format("reference median: {} ms\n", r.reference.value("median_ms", 0.0));
    }
    if (r.speedup_vs_reference) {
      out += fmt::format("speedup vs reference: {:.3f}x\n", *r.speedup_vs_reference);
    }
    for (const auto& w : r.warnings) out += "warning: " + w + "\n";
    if (!r.ok()) err = fmt::format("{}: {}\n{}\n", r.status, r.reason, r.detail);
  }
  write_file_atomic(dir / "benchmark.stdout.txt", out);
  write_file_atomic(dir / "benchmark.stderr.txt", err);
}

}  // namespace kopt::loop
