#include "loop/run_manifest_fields.h"

#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "core/document.h"

namespace kopt::loop {

BOOST_DESCRIBE_STRUCT(frozen_problem, (),
                      (reference_sha256, problem_sha256, tolerances, dims, check_dims, check_problem_sha256))
BOOST_DESCRIBE_STRUCT(shape_check, (), (dims, status, reason))
BOOST_DESCRIBE_STRUCT(tuned_values, (), (defines, tune_result, measured, allowed, written_sha256))
BOOST_DESCRIBE_STRUCT(version_record, (),
                      (snapshot, source_sha256, library_sha256, parent, tags, fingerprint, outcome, reason,
                       problem_changed, eligible, median_ms, median_ci95_ms, reference_median_ms,
                       speedup_vs_reference, bottleneck, at_hardware_limit, comparison, checks, step_seconds,
                       finished_at, tuned))
BOOST_DESCRIBE_STRUCT(candidate_record, (version_record), (candidate))
BOOST_DESCRIBE_STRUCT(iteration_record, (version_record),
                      (iteration, attempt, kernel_file, candidates, chosen_candidate))
BOOST_DESCRIBE_STRUCT(run_manifest, (),
                      (run_id, kopt_version, created_at, updated_at, kernel, reference, backend, arch, op,
                       op_family, max_iterations, memory_db, frozen, settings, iterations, best, blocked,
                       open_round, superseded))

}  // namespace kopt::loop

namespace kopt {
template <>
inline constexpr auto document_ranges<loop::run_manifest> =
    std::make_tuple(within(&loop::run_manifest::max_iterations, 0, loop::most_iterations),
                    within(&loop::run_manifest::best, 0, loop::most_iterations));
template <>
inline constexpr auto document_ranges<loop::iteration_record> =
    std::make_tuple(within(&loop::iteration_record::iteration, 0, loop::most_iterations),
                    within(&loop::iteration_record::attempt, 1, loop::most_iterations));
}  // namespace kopt

namespace kopt::loop {
namespace {

// A v3 manifest said "problem changed" only at the start of a rejected version's reason.
constexpr std::string_view older_problem_changed_reason = "problem changed";

// What manifests written before a field existed lack, as the writer would have written it
// then: v1 has no shape checks or rounds of candidates; libraries and step times came later
// in v2; attempts, a version's own file and superseded attempts in v3; problem_changed in v4,
// where a pending candidate's outcome became "pending" (it was ""); tuned values in v5; and
// v1's comparisons have no method. The reader itself accepts nothing missing.
void fill_older_fields(json& document) {
  const auto fill = [](json& object, const char* key, const json& value) {
    if (object.is_object() && !object.contains(key)) object[key] = value;
  };
  const auto fill_version = [&](json& record) {
    fill(record, "library_sha256", "");
    fill(record, "checks", json::array());
    fill(record, "step_seconds", json::object());
    fill(record, "tuned", nullptr);
    if (record.is_object() && record.contains("comparison"))
      fill(record["comparison"], "method", "not recorded (a manifest written before kopt kept it)");
    if (!record.is_object() || record.contains("problem_changed")) return;
    const json outcome = record.value("outcome", json(nullptr));
    const json reason = record.value("reason", json(nullptr));
    record["problem_changed"] = outcome == "rejected" && reason.is_string() &&
                                reason.get<std::string>().rfind(older_problem_changed_reason, 0) == 0;
    if (outcome == "") record["outcome"] = "pending";
  };
  const auto fill_iteration = [&](json& record) {
    fill_version(record);
    fill(record, "attempt", 1);
    fill(record, "kernel_file", "");
    fill(record, "candidates", json::array());
    fill(record, "chosen_candidate", nullptr);
    if (record.is_object() && record["candidates"].is_array()) {
      for (json& candidate : record["candidates"]) fill_version(candidate);
    }
  };
  if (!document.is_object()) return;
  if (document.contains("frozen")) {
    fill(document["frozen"], "check_dims", json::array());
    fill(document["frozen"], "check_problem_sha256", json::array());
  }
  if (document.contains("iterations") && document["iterations"].is_array()) {
    for (json& record : document["iterations"]) fill_iteration(record);
  }
  if (document.contains("open_round")) fill_iteration(document["open_round"]);
  fill(document, "superseded", json::array());
}

[[noreturn]] void refuse_at(const std::string& where, const std::string& problem) {
  throw document_error(where, problem);
}

bool is_finite_number(const json& value) {
  return value.is_number() && std::isfinite(value.get<double>());
}

// [low, high], as the bench and the comparisons write an interval; null when there is none.
void check_interval(const json& value, const std::string& where) {
  if (value.is_null()) return;
  if (!value.is_array() || value.size() != 2 || !is_finite_number(value[0]) || !is_finite_number(value[1])) {
    refuse_at(where, "must be null or [low, high], two numbers");
  }
}

// The open parts of a version's record, as far as the summaries and the report read them.
void check_version(const version_record& r, const std::string& where) {
  check_interval(r.median_ci95_ms, where + ".median_ci95_ms");
  if (!r.step_seconds.is_object()) refuse_at(where + ".step_seconds", "must be an object of step times");
  for (const auto& [step, seconds] : r.step_seconds.items()) {
    if (!is_finite_number(seconds))
      refuse_at(fmt::format("{}.step_seconds.{}", where, step), "must be a number");
  }
  if (r.parent && *r.parent < 0) refuse_at(where + ".parent", "must not be negative");
}

void check_iteration(const iteration_record& r, const std::string& where) {
  check_version(r, where);
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    check_version(r.candidates[i], fmt::format("{}.candidates[{}]", where, i));
  }
  if (r.chosen_candidate && r.find_candidate(*r.chosen_candidate) == nullptr) {
    refuse_at(where + ".chosen_candidate",
              fmt::format("is {}, which is none of the round's candidates", *r.chosen_candidate));
  }
}

// What the loop and the report rely on when they follow the manifest's numbers.
void check_consistent(const run_manifest& m) {
  if (!m.settings.is_object()) refuse_at("settings", "must be an object");
  for (std::size_t i = 0; i < m.iterations.size(); ++i) {
    const iteration_record& r = m.iterations[i];
    const std::string where = fmt::format("iterations[{}]", i);
    if (r.iteration != static_cast<std::int64_t>(i)) {
      refuse_at(where + ".iteration",
                fmt::format("is {}, expected {} (iterations are v0, v1, ... in order)", r.iteration, i));
    }
    check_iteration(r, where);
    if (r.parent && *r.parent >= r.iteration) {
      refuse_at(where + ".parent", fmt::format("is {}, not an earlier iteration", *r.parent));
    }
  }
  if (m.best && m.find(*m.best) == nullptr) {
    refuse_at("best", fmt::format("is {}, which is none of the run's iterations", *m.best));
  }
  for (std::size_t i = 0; i < m.superseded.size(); ++i) {
    const iteration_record& r = m.superseded[i];
    const std::string where = fmt::format("superseded[{}]", i);
    check_iteration(r, where);
    const iteration_record* now = m.find(r.iteration);
    if (now != nullptr && now->attempt <= r.attempt) {
      refuse_at(where + ".attempt", fmt::format("is {}, not earlier than v{}'s attempt {} that superseded it",
                                                r.attempt, r.iteration, now->attempt));
    }
  }
  if (m.open_round) {
    check_iteration(*m.open_round, "open_round");
    if (m.open_round->iteration != static_cast<std::int64_t>(m.iterations.size())) {
      refuse_at("open_round.iteration", fmt::format("is {}, expected {} (the iteration after the last)",
                                                    m.open_round->iteration, m.iterations.size()));
    }
  }
}

}  // namespace

json manifest_fields(const run_manifest& manifest) {
  return to_document(manifest);
}

run_manifest manifest_from_fields(json document) {
  fill_older_fields(document);
  run_manifest m = from_document<run_manifest>(document);
  check_consistent(m);
  return m;
}

}  // namespace kopt::loop
