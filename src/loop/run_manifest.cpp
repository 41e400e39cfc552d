#include "loop/run_manifest.h"

#include <fmt/format.h>

#include "core/document_error.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "loop/run_manifest_fields.h"
#include "loop/toolkit_run_manifest.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

constexpr const char* checksum_key = "content_sha256";

template <typename T>
json optional_json(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json checks_json(const std::vector<shape_check>& checks) {
  json out = json::array();
  for (const auto& c : checks) out.push_back({{"dims", c.dims}, {"status", c.status}, {"reason", c.reason}});
  return out;
}

void put_version(json& out, const version_record& r) {
  out.update({{"snapshot", r.snapshot},
              {"source_sha256", r.source_sha256},
              {"library_sha256", r.library_sha256},
              {"parent", optional_json(r.parent)},
              {"tags", r.tags},
              {"fingerprint", r.fingerprint},
              {"outcome", r.outcome},
              {"reason", r.reason},
              {"eligible", r.eligible},
              {"median_ms", optional_json(r.median_ms)},
              {"median_ci95_ms", r.median_ci95_ms},
              {"reference_median_ms", optional_json(r.reference_median_ms)},
              {"speedup_vs_reference", optional_json(r.speedup_vs_reference)},
              {"bottleneck", r.bottleneck},
              {"at_hardware_limit", r.at_hardware_limit},
              {"comparison", r.comparison},
              {"checks", checks_json(r.checks)},
              {"step_seconds", r.step_seconds},
              {"finished_at", r.finished_at}});
}

json iteration_json(const iteration_record& r) {
  json out = {{"iteration", r.iteration}, {"attempt", r.attempt}, {"kernel_file", r.kernel_file}};
  put_version(out, r);
  json candidates = json::array();
  for (const auto& c : r.candidates) {
    json node = {{"candidate", c.candidate}};
    put_version(node, c);
    candidates.push_back(node);
  }
  out["candidates"] = candidates;
  out["chosen_candidate"] = optional_json(r.chosen_candidate);
  return out;
}

std::string checksum_of(const json& document_without_checksum) {
  return sha256_hex(json_text(document_without_checksum, -1));
}

std::string schema_text(int version) {
  return fmt::format("kopt.{}/v{}", run_manifest_schema, version);
}

}  // namespace

json to_json(const run_manifest& m) {
  json iterations = json::array();
  for (const auto& r : m.iterations) iterations.push_back(iteration_json(r));
  json superseded = json::array();
  for (const auto& r : m.superseded) superseded.push_back(iteration_json(r));
  return with_schema(run_manifest_schema, run_manifest_version,
                     {{"run_id", m.run_id},
                      {"kopt_version", m.kopt_version},
                      {"created_at", m.created_at},
                      {"updated_at", m.updated_at},
                      {"kernel", m.kernel},
                      {"reference", m.reference},
                      {"backend", m.backend},
                      {"arch", m.arch},
                      {"op", m.op},
                      {"op_family", m.op_family},
                      {"max_iterations", m.max_iterations},
                      {"memory_db", m.memory_db},
                      {"frozen",
                       {{"reference_sha256", m.frozen.reference_sha256},
                        {"problem_sha256", m.frozen.problem_sha256},
                        {"tolerances", m.frozen.tolerances},
                        {"dims", m.frozen.dims},
                        {"check_dims", m.frozen.check_dims},
                        {"check_problem_sha256", m.frozen.check_problem_sha256}}},
                      {"settings", m.settings},
                      {"iterations", iterations},
                      {"best", optional_json(m.best)},
                      {"blocked", m.blocked},
                      {"open_round", m.open_round ? iteration_json(*m.open_round) : json(nullptr)},
                      {"superseded", superseded}});
}

std::string run_manifest_text(const run_manifest& manifest) {
  json document = to_json(manifest);
  document[checksum_key] = checksum_of(document);
  return json_text(document) + "\n";
}

void write_run_manifest(const fs::path& run_dir, run_manifest manifest) {
  write_file_atomic(run_dir / run_manifest_name, run_manifest_text(manifest));
}

run_manifest read_run_manifest(const fs::path& run_dir) {
  const fs::path file = run_dir / run_manifest_name;
  json document = read_json_file(file);
  const auto text_at = [&](const char* key) {
    return document.is_object() && document.contains(key) && document[key].is_string() ? document[key].get<std::string>()
                                                                                       : std::string();
  };
  const std::string schema = text_at("schema");
  if (is_toolkit_run_manifest(document)) {
    throw error(fmt::format("{} is the Python toolkit's record of its run, which kopt has not adopted yet: continue the "
                            "run with kopt loop KERNEL --run-dir {} and the run's dimensions, which adopts it (the "
                            "toolkit's files are kept, its best judged again)",
                            file.string(), run_dir.string()));
  }
  if (schema != schema_text(run_manifest_version) && schema != schema_text(2) && schema != schema_text(1)) {
    throw error(
        fmt::format("{} is not a kopt run manifest ({}): pass the folder of a run started by this kopt, or "
                    "start a new run without --run-dir",
                    file.string(), schema_text(run_manifest_version)));
  }
  const std::string recorded = text_at(checksum_key);
  document.erase(checksum_key);
  if (recorded != checksum_of(document)) {
    throw error(fmt::format("{} was changed outside kopt (its checksum does not match its content): kopt alone "
                            "writes the run's record; restore the file or start a new run",
                            file.string()));
  }
  document.erase("schema");
  try {
    return manifest_from_fields(std::move(document));
  } catch (const document_error& e) {
    throw e.in(file.string(), "kopt did not write this; restore the run folder as kopt left it, or start a new run");
  }
}

}  // namespace kopt::loop
