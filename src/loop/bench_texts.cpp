#include "loop/bench_texts.h"

#include <string>

#include <fmt/format.h>

#include "core/files.h"
#include "pipeline/bench_text.h"

namespace kopt::loop {

void write_bench_texts(const std::filesystem::path& dir, const pipeline::bench_outcome& bench) {
  std::string out;
  std::string err;
  if (bench.prepared.failed_build) {
    err = fmt::format("compile failed: {}\n{}\n", bench.prepared.failed_build->result.failure_reason,
                      bench.prepared.failed_build->result.compiler_output);
  } else {
    const pipeline::bench_result& r = bench.result;
    // What kopt bench prints for the same result, by the same printer.
    out = fmt::format("status: {}\n", enum_name(r.status)) + pipeline::bench_text(r) + pipeline::phases_text(r);
    if (!r.ok()) err = fmt::format("{}: {}\n{}\n", enum_name(r.status), r.reason, r.detail);
  }
  write_file_atomic(dir / "benchmark.stdout.txt", out);
  write_file_atomic(dir / "benchmark.stderr.txt", err);
  // What the kernel itself printed while measured (bounded as the result keeps it).
  if (!bench.prepared.failed_build && bench.result.kernel_output) {
    write_file_atomic(dir / "kernel_output.txt", pipeline::printed_output_text(*bench.result.kernel_output));
  }
}

}  // namespace kopt::loop
