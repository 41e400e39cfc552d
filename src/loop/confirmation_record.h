#pragma once
// confirmation.json: the run's final confirmation (final_confirmation.h), the only source of the
// figures kopt announces for a run. Each version confirmed in turn has its attempt: the figures
// of its re-judging from its snapshot, its compute-sanitizer passes and its comparison in turns
// with the baseline, or why it failed. Written atomically by kopt after the manifest; read by
// `kopt report`, `kopt loop --json` and MCP with the checking reader.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"
#include "loop/run_records.h"
#include "measure/speed_of_light.h"
#include "pipeline/bench_result.h"
#include "pipeline/documents.h"

namespace kopt::loop {

inline constexpr const char* confirmation_file_name = "confirmation.json";
inline constexpr const char* confirmation_dir_name =
    "confirmation";  // confirmation/vK/: each attempt's files

// One version's confirmation.
struct confirmation_attempt {
  std::int64_t iteration = 0;
  std::string snapshot;  // relative to the run folder
  bool confirmed = false;
  std::string reason;               // one line: what failed, or what confirmed it
  std::optional<double> median_ms;  // [ms] re-judged and timed now
  std::optional<std::array<double, 2>> median_ci95_ms;
  std::optional<double> reference_median_ms;
  std::optional<double> speedup_vs_reference;
  // Its 95 % interval (none in a confirmation written before it was kept).
  std::optional<std::array<double, 2>> speedup_vs_reference_ci95;
  std::vector<pipeline::sanitizer_record> sanitizers;  // one per tool run, in order
  std::string outcome_vs_baseline;                     // positive, neutral, ... ("" when not compared)
  std::optional<double> ratio_vs_baseline;             // this version's time / the baseline's
  std::optional<std::array<double, 2>> ratio_ci95;
  std::string method;  // "in turns, N rounds of M calls" or "separate runs"
  // How far from the hardware limit, from the figures above (version_speed_of_light.h); none
  // for a Triton module, or in a confirmation written before it was kept.
  std::optional<measure::speed_of_light_figures> speed_of_light;
};
BOOST_DESCRIBE_STRUCT(confirmation_attempt, (),
                      (iteration, snapshot, confirmed, reason, median_ms, median_ci95_ms, reference_median_ms,
                       speedup_vs_reference, speedup_vs_reference_ci95, sanitizers, outcome_vs_baseline,
                       ratio_vs_baseline, ratio_ci95, method, speed_of_light))

enum class confirmation_verdict { confirmed, none_survived, nothing_to_confirm };
BOOST_DESCRIBE_ENUM(confirmation_verdict, confirmed, none_survived, nothing_to_confirm)

struct final_confirmation {
  static constexpr std::string_view document_schema = "kopt.final_confirmation/v1";
  std::string kopt_version;
  std::string confirmed_at;
  // The manifest's iterations when confirmed: a run that went on since is not confirmed.
  std::int64_t iterations_recorded = 0;
  std::int64_t baseline = 0;  // the version compared with (v0, or the first that passed)
  confirmation_verdict verdict = confirmation_verdict::nothing_to_confirm;
  std::optional<std::int64_t> best;            // the confirmed version
  std::vector<confirmation_attempt> attempts;  // in the order they were made: the loop's ranking

  const confirmation_attempt* confirmed_attempt() const;
};
BOOST_DESCRIBE_STRUCT(final_confirmation, (),
                      (kopt_version, confirmed_at, iterations_recorded, baseline, verdict, best, attempts))

void write_confirmation(const std::filesystem::path& run_dir, const final_confirmation& confirmation);

// None when the run folder has none; throws kopt::error naming the file and field the checking
// reader refuses.
std::optional<final_confirmation> read_confirmation(const std::filesystem::path& run_dir);

// Whether `c` confirms the run as `m` records it now (no iteration since, the same best).
bool confirmation_is_current(const final_confirmation& c, const run_manifest& m);

// What a confirmed version's figures say a user gains, each with its 95 % interval where kept:
// "1.842x faster than v0 [1.829, 1.855], 3.104x the reference [3.071, 3.138]" (the reference's
// part only when there is one). Every front end prints the answer with this.
std::string confirmed_speedups(const confirmation_attempt& a, std::int64_t baseline);

// The run folder's documents, for the schema files (docs/schemas).
std::vector<pipeline::document_schema_entry> run_folder_document_schemas();

}  // namespace kopt::loop
