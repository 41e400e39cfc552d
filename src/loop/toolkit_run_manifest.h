#pragma once
// The Python toolkit's run_manifest.json as a typed document, the part kopt reads when it
// adopts a run the toolkit made: the run's kernel, reference and dimensions, and per iteration
// its snapshot, its bench's exit status and figures, and the strategy that led to it. Read by
// the one checking reader (a value of the wrong type is refused with its field named); the many
// fields kopt does not use are passed over, and what the toolkit leaves null counts as absent.
// The toolkit's manifest names no schema, which is how it is told from kopt's.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/document.h"

namespace kopt::loop {

struct toolkit_kernel_figures {
  static constexpr bool document_open = true;
  std::optional<double> median_ms;
  std::optional<double> average_ms;
};
BOOST_DESCRIBE_STRUCT(toolkit_kernel_figures, (), (median_ms, average_ms))

struct toolkit_correctness {
  static constexpr bool document_open = true;
  std::optional<bool> passed;
};
BOOST_DESCRIBE_STRUCT(toolkit_correctness, (), (passed))

struct toolkit_bench_result {
  static constexpr bool document_open = true;
  std::optional<toolkit_kernel_figures> kernel;
  std::optional<toolkit_correctness> correctness;
  std::optional<bool> has_reference;
  std::optional<double> speedup_vs_reference;
};
BOOST_DESCRIBE_STRUCT(toolkit_bench_result, (), (kernel, correctness, has_reference, speedup_vs_reference))

struct toolkit_strategy {
  static constexpr bool document_open = true;
  std::optional<std::vector<std::string>> tags;
  std::optional<std::string> fingerprint;
  std::optional<std::string> outcome;
  std::optional<std::string> reason;
};
BOOST_DESCRIBE_STRUCT(toolkit_strategy, (), (tags, fingerprint, outcome, reason))

struct toolkit_iteration {
  static constexpr bool document_open = true;
  std::int64_t iteration = 0;
  std::optional<std::string> snapshot_file;  // absolute, where the toolkit wrote it
  std::optional<std::int64_t> benchmark_rc;
  std::optional<toolkit_bench_result> benchmark_result;
  std::optional<toolkit_strategy> strategy;
  std::optional<bool> full_report_exists;
};
BOOST_DESCRIBE_STRUCT(toolkit_iteration, (),
                      (iteration, snapshot_file, benchmark_rc, benchmark_result, strategy, full_report_exists))

struct toolkit_run_manifest {
  static constexpr bool document_open = true;
  std::optional<std::string> backend;
  std::optional<std::string> source_file;     // the run's kernel file, absolute
  std::optional<std::string> reference_file;  // "" without one
  std::optional<std::string> arch;
  std::optional<std::vector<std::string>> dims_args;  // "--rows=4096", as given
  std::optional<std::int64_t> max_iterations;
  std::vector<toolkit_iteration> iterations;
  std::optional<std::int64_t> best_iteration;
};
BOOST_DESCRIBE_STRUCT(toolkit_run_manifest, (),
                      (backend, source_file, reference_file, arch, dims_args, max_iterations, iterations,
                       best_iteration))

// Whether a parsed run_manifest.json is the toolkit's: an object without kopt's schema field,
// with a list of iterations.
bool is_toolkit_run_manifest(const json& document);

// The toolkit's median of an iteration, when its bench succeeded and gave one.
std::optional<double> toolkit_median_ms(const toolkit_iteration& iteration);

}  // namespace kopt::loop

namespace kopt {
template <>
inline constexpr auto document_ranges<loop::toolkit_iteration> =
    std::make_tuple(within(&loop::toolkit_iteration::iteration, 0, 1e6));
template <>
inline constexpr auto document_ranges<loop::toolkit_run_manifest> =
    std::make_tuple(within(&loop::toolkit_run_manifest::best_iteration, 0, 1e6));
}  // namespace kopt
